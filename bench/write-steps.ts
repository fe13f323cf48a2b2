/**
 * npx tsx bench/write-steps.ts <server url> [rounds]: what each of issue 41's migrations saved. One
 * database per step on that server (`write_step_<n>`, made and dropped here): the schema before issue
 * 41 (every migration but WRITE_WORK_MIGRATIONS), then that schema with the first 1, 2, … of them (until
 * 0077, the activity indexes as OLD_SCHEMA_FOR_TODAYS_CODE makes them),
 * each measured by lib/write-work.ts on today's code (WAL exact per create and vote, the backend's CPU
 * per create and vote, statements), the steps in a new order each round so no step always runs first.
 * Prints one line per step: the medians over the rounds.
 */
import { migrate, readMigrations } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { withClient } from './lib/database.js';
import {
  measureWriteWork,
  median,
  OLD_SCHEMA_FOR_TODAYS_CODE,
  WRITE_WORK_MIGRATIONS,
  type WriteWork,
} from './lib/write-work.js';

const [server, roundsArg = '3'] = process.argv.slice(2);
if (!server) throw new Error('usage: tsx bench/write-steps.ts <server url> [rounds]');
const rounds = Number(roundsArg);

const urlOf = (step: number) => {
  const url = new URL(server);
  url.pathname = `/write_step_${step}`;
  return url.toString();
};
const admin = (sql: string) => withClient(server, (client) => client.query(sql));

const steps = [...Array(WRITE_WORK_MIGRATIONS.length + 1).keys()];
for (const step of steps) {
  const name = `write_step_${step}`;
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const pool = openPostgres(urlOf(step), () => undefined, 1).pool;
  const applied = WRITE_WORK_MIGRATIONS.slice(0, step);
  await migrate(
    pool,
    readMigrations().filter((m) => {
      const number = m.version.slice(0, 4);
      return !WRITE_WORK_MIGRATIONS.includes(number) || applied.includes(number);
    }),
  );
  if (!applied.includes('0077')) await pool.query(OLD_SCHEMA_FOR_TODAYS_CODE);
  await pool.end();
}

const runs = new Map<number, WriteWork[]>(steps.map((step) => [step, []]));
try {
  for (let round = 0; round < rounds; round++) {
    // each round starts at a different step and alternates direction
    const order = steps.map((_, i) => steps[(i + round * 5) % steps.length]!);
    if (round % 2 === 1) order.reverse();
    for (const step of order) {
      runs.get(step)!.push(await measureWriteWork(urlOf(step), { sequential: 300, seconds: 0.2, rounds: 1 }));
      process.stderr.write('.');
    }
  }
} finally {
  for (const step of steps) await admin(`DROP DATABASE IF EXISTS write_step_${step} WITH (FORCE)`);
}
process.stderr.write('\n');

const keys = ['create_wal_bytes', 'vote_wal_bytes', 'create_pg_cpu_ms', 'vote_pg_cpu_ms', 'create_statements'] as const;
for (const step of steps) {
  const figures = Object.fromEntries(keys.map((key) => [key, median(runs.get(step)!.map((run) => run[key]))]));
  const spread = (key: (typeof keys)[number]) => {
    const values = runs.get(step)!.map((run) => run[key]);
    return `${Math.min(...values)}–${Math.max(...values)}`;
  };
  process.stdout.write(
    `${step === 0 ? 'before' : `+${WRITE_WORK_MIGRATIONS[step - 1]}`}\t${JSON.stringify(figures)}\tcpu create ${spread('create_pg_cpu_ms')} vote ${spread('vote_pg_cpu_ms')}\n`,
  );
}
