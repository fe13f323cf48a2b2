import { configDefaults, defineConfig } from 'vitest/config';

// The suite always runs on the embedded database, and once more on PostgreSQL when TEST_DATABASE_URL is set.
const modes = ['embedded', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

/** Tests whose outcome does not depend on the database kind: the embedded run is enough. */
const EMBEDDED_ONLY = [
  'test/db/embedded.test.ts',
  'test/openapi/lint.test.ts',
  'test/openapi/contract.test.ts',
  'test/openapi/docs.browser.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    globalSetup: ['test/support/global-setup.ts'],
    // Most of a test's time is spent waiting on a database or a child process, not on this CPU.
    maxWorkers: 3,
    // Test files share nothing but imported modules: no need to re-import them per file.
    isolate: false,
    hookTimeout: 60_000,
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
