/**
 * Dependencies point one way (CONTRIBUTING.md): features depend on the middle tier (outbox/, counts/,
 * users/) and on the shared layers (auth/, errors/, db/, shared/, http/...); the middle tier depends on
 * the shared layers only, and those never depend on either. `npm run lint` fails on any cycle, between modules or
 * between folders.
 */

/** The shared layers: the only folders of src/ that are not features. */
const CORE = ['auth', 'errors', 'db', 'shared', 'http', 'openapi', 'cache', 'config', 'metrics', 'mail', 'idempotency'];
const CORE_PATH = `^src/(${CORE.join('|')})/`;
/**
 * Every other folder of src/ is a feature, whatever its name. A negative lookahead rather than a list
 * of features: a list by hand drifted (it missed four), and one read from the disk here would describe
 * this checkout rather than the tree being cruised. So a folder added, renamed or split later is a
 * feature from its first file, with nothing to keep in step (test/lint/depcruise.test.ts).
 */
const FEATURE_PATH = `^src/(?!(${CORE.join('|')})/)[^/]+/`;

/**
 * The middle tier: what several features share that is itself about the business (a change's
 * activity, event and deliveries; the counted lists; the users). Features may import it; it imports
 * only the shared layers, never a feature, and the shared layers never import it.
 */
const MIDDLE = ['outbox', 'counts', 'users'];
const MIDDLE_PATH = `^src/(${MIDDLE.join('|')})/`;
const FEATURE_ABOVE_MIDDLE_PATH = `^src/(?!(${[...CORE, ...MIDDLE].join('|')})/)[^/]+/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment: 'Two folders import each other, directly or through others: one of them must be the lower layer.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycle',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-knows-no-feature',
      comment: `The shared layers (${CORE.join(', ')}) never import a feature.`,
      severity: 'error',
      from: { path: CORE_PATH },
      to: { path: FEATURE_PATH },
    },
    {
      name: 'middle-knows-no-feature',
      comment: `The middle tier (${MIDDLE.join(', ')}) imports the shared layers only, never a feature.`,
      severity: 'error',
      from: { path: MIDDLE_PATH },
      to: { path: FEATURE_ABOVE_MIDDLE_PATH },
    },
    {
      name: 'only-the-root-composes',
      comment: 'app.ts, routes.ts and main.ts wire everything together; nothing below them imports them.',
      severity: 'error',
      from: { path: '^src/.+/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
