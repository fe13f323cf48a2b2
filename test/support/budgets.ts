/**
 * Time limits for work that is slow by nature, sized for CI: a shared 2-core machine that may be
 * running a second copy of the suite at the same time. Each figure is several times the slowest
 * time measured under that double load (`npx vitest run` twice at once), so a test that runs out of
 * its budget is stuck rather than waiting for a core. Ordinary tests keep vitest's testTimeout
 * (vitest.config.ts); a test doing one of these things takes its timeout from here.
 */

/** What an ordinary test (a few dozen requests) may take on that machine: vitest's testTimeout. */
export const ORDINARY_MS = 20_000;

/**
 * Starting `src/main.ts` until it listens and /health answers 200: a Node process loading tsx, then
 * opening its database (a copy of the migrated template, see databaseEnv) and checking migrations.
 */
export const SERVER_START_MS = 60_000;

/** One admin CLI run: a Node process loading tsx, connecting and running one command. */
export const CLI_RUN_MS = 30_000;

/** Opening an embedded database in an empty directory, which runs initdb. */
export const EMBEDDED_INITDB_MS = 30_000;

/** A test's timeout from the slow steps it takes, plus the ordinary allowance for everything else. */
export function budgetFor(steps: { serverStarts?: number; cliRuns?: number; initdbs?: number }): number {
  return (
    ORDINARY_MS +
    (steps.serverStarts ?? 0) * SERVER_START_MS +
    (steps.cliRuns ?? 0) * CLI_RUN_MS +
    (steps.initdbs ?? 0) * EMBEDDED_INITDB_MS
  );
}
