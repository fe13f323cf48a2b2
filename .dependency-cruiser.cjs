/**
 * Dependencies point one way (CONTRIBUTING.md): features depend on auth/, errors/, db/, shared/ and
 * http/, and those never depend on a feature. `npm run lint` fails on any cycle, between modules or
 * between folders.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const FEATURES =
  '^src/(suggestions|issues|comments|exports|qr-codes|team|api-keys|sessions|accounts|analytics|businesses|locations|activity|counts|seed|service|cli)/';

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
      comment:
        'The shared layers (auth, errors, db, shared, http, openapi, cache, config, metrics, mail, idempotency) never ' +
        'import a feature.',
      severity: 'error',
      from: { path: '^src/(auth|errors|db|shared|http|openapi|cache|config|metrics|mail|idempotency)/' },
      to: { path: FEATURES },
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
