import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { ORDINARY_MS } from './test/support/budgets.js';

// The suite always runs on the embedded database, and once more on PostgreSQL when TEST_DATABASE_URL is set.
const modes = ['embedded', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

/** Tests whose outcome does not depend on the database kind: the embedded run is enough. */
const EMBEDDED_ONLY = [
  'test/db/embedded.test.ts',
  // the catalog of this checkout's migrations: the shared PostgreSQL database may hold other branches' tables
  'test/db/tenancy.test.ts',
  'test/openapi/lint.test.ts',
  'test/openapi/contract.test.ts',
  'test/openapi/routes.test.ts',
  'test/openapi/docs.browser.test.ts',
  'test/api/public-page.browser.test.ts',
  'test/lint/**',
  'test/api/dashboard.browser.test.ts',
  'test/api/dashboard-triage.browser.test.ts',
  'test/api/dashboard-merge.browser.test.ts',
  'test/api/dashboard-tags.browser.test.ts',
];

export default defineConfig({
  test: {
    // An ordinary test makes a few dozen requests: seconds, even on a loaded 2-core machine. A test that
    // does more (starts processes, writes thousands of rows) sets its own timeout and says why; past
    // these 20 s an ordinary test is stuck, not slow.
    testTimeout: ORDINARY_MS,
    // beforeAll opens the file's database (PGlite from the migrated template, or a pool and migrations
    // on PostgreSQL) and afterAll closes it: seconds at worst. A hook that starts a server sets its own.
    hookTimeout: 60_000,
    globalSetup: ['test/support/global-setup.ts'],
    // One worker per core. The embedded database runs inside each worker, so a worker is busy on this
    // CPU rather than waiting; more workers than cores only stretch every test, and on CI's shared
    // 2-core machine, which may run a second suite at the same time, that is what made tests time out.
    maxWorkers: Math.max(2, availableParallelism()),
    // Test files share nothing but imported modules: no need to re-import them per file.
    isolate: false,
    projects: modes.map((mode) => ({
      extends: true,
      test: {
        name: mode,
        // pure unit tests and the embedded database's own tests need no second run
        include: mode === 'embedded' ? ['src/**/*.test.ts', 'test/**/*.test.ts'] : ['test/**/*.test.ts'],
        exclude: mode === 'embedded' ? configDefaults.exclude : [...configDefaults.exclude, ...EMBEDDED_ONLY],
        env: { TEST_DB: mode },
      },
    })),
  },
});
