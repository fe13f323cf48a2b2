/**
 * npx tsx bench/wal-records.ts <database url>: where a create's and a vote's WAL goes, by record type
 * and relation (pg_walinspect, this database's own transactions, full-page images apart), averaged
 * over 20 of each on the service's own write path. The figures behind docs/decisions.md's "What a
 * write costs" entries; it writes into the database it is given (a business of its own).
 */
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { createApiKey } from '../src/api-keys/api-key.service.js';
import { digestKey } from '../src/auth/key-format.js';
import { createBusiness } from '../src/businesses/business.service.js';
import { castVote } from '../src/votes/vote.service.js';
import { create as createOne } from './lib/write-work.js';
import { findKeyPrincipal } from './lib/writes.js';
const url = process.argv[2];
if (!url) throw new Error('usage: tsx bench/wal-records.ts <database url>');
const pool = openPostgres(url, () => undefined, 1).pool;
await migrate(pool);
await pool.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
const { business } = await createBusiness(pool, { name: 'wb', plan: 'business' });
const { key } = await createApiKey(pool, business.id, { name: 'b', scope: 'write' }, { maxActive: 100 });
const p = (await findKeyPrincipal(pool, digestKey(key)))!;
const create = (i: number) => createOne(pool, p, i);
const s = await create(0);
for (let i = 0; i < 30; i++) {
  await create(i + 1);
  await castVote(pool, p, s.id, { type: 'external_id', externalId: `w${i}` });
}
const lsn = async () => (await pool.query<{ l: string }>('SELECT pg_current_wal_insert_lsn()::text AS l')).rows[0]!.l;
async function show(label: string, f: () => Promise<unknown>) {
  const a = await lsn();
  for (let i = 0; i < 20; i++) await f();
  const b = await lsn();
  // pg_walinspect reads only flushed WAL ("cannot accept future end LSN"): wait for the flush.
  while (!(await pool.query<{ ok: boolean }>('SELECT pg_current_wal_flush_lsn() >= $1::pg_lsn AS ok', [b])).rows[0]!.ok)
    await new Promise((r) => setTimeout(r, 20));
  const { rows } = await pool.query<{ rm: string; rt: string; rel: string | null; n: string; bytes: string }>(
    `
    WITH r AS (SELECT xid, resource_manager rm, record_type rt, record_length - fpi_length AS bytes, block_ref FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)),
    ours AS (SELECT DISTINCT xid FROM r WHERE xid <> '0' AND block_ref LIKE '%/' || (SELECT oid FROM pg_database WHERE datname = current_database()) || '/%')
    SELECT rm, rt, coalesce(c.relname, substring(block_ref from 'rel \\d+/\\d+/(\\d+)')) rel, count(*)/20.0 n, sum(bytes)/20 bytes
    FROM r LEFT JOIN pg_class c ON c.relfilenode::text = substring(block_ref from 'rel \\d+/\\d+/(\\d+)')
    WHERE xid IN (SELECT xid FROM ours) GROUP BY 1,2,3 ORDER BY bytes DESC`,
    [a, b],
  );
  let t = 0;
  for (const r of rows) t += Number(r.bytes);
  process.stdout.write(`== ${label}: ${t.toFixed(0)} B\n`);
  for (const r of rows)
    process.stdout.write(`${r.rm}/${r.rt} ${r.rel} n=${Number(r.n).toFixed(2)} ${Number(r.bytes).toFixed(0)}\n`);
}
let j = 100;
await show('create', () => create(j++));
await show('vote', () => castVote(pool, p, s.id, { type: 'external_id', externalId: `v${j++}` }));
await pool.end();
