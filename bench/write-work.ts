/**
 * npx tsx bench/write-work.ts <database url> [rounds]: the write-work rows of the bench
 * (lib/write-work.ts) against a database of one's own, without the bench's seed, beside the schema
 * before issue 41 in `<name>_before` on the same server (created and dropped): what a schema change
 * does to a create and a vote. `npm run bench -- --only writes` runs the same in a database of its own.
 */
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { compareWriteWork } from './lib/write-work.js';

const [url, rounds = '3'] = process.argv.slice(2);
if (!url) throw new Error('usage: tsx bench/write-work.ts <database url> [rounds]');
const db = openPostgres(url, () => undefined, 1);
await migrate(db.pool);
await db.pool.end();
const figures = await compareWriteWork(
  url,
  { sequential: 300, seconds: 1, rounds: 3, compareRounds: Number(rounds) },
  (message) => process.stderr.write(`${message}\n`),
);
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
