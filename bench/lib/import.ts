import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type pg from 'pg';
import type { Principal } from '../../src/auth/principal.js';
import { createBusiness } from '../../src/businesses/business.service.js';
import { importCsv } from '../../src/imports/import.service.js';
import { seedBusiness } from '../../src/seed/seed.service.js';

/** The CSV an import of `rows` suggestions reads: the export's columns, as the export writes them. */
const COLUMNS = ['id', 'content', 'status', 'priority', 'customer_name', 'customer_email', 'upvote_count', 'tags'];

/**
 * `import_vs_seed_throughput_ratio` (issue 44): rows per second of a CSV import of `rows` suggestions
 * (the service's own importCsv, streamed from 64 KB chunks as a request body arrives), against the
 * seed's rows per second for the same number, on the same database. The CSV is made from the seeded
 * rows beforehand and is not timed; the import goes into a second, empty business.
 */
export async function measureImport(pool: pg.Pool, rows: number, log: (line: string) => void) {
  const from = await createBusiness(pool, { name: 'Import source', plan: 'business' });
  const seeded = await seedBusiness(pool, from.business.id, { suggestions: rows, issues: 0, comments: 0 });
  log(`seeded ${rows} suggestions: ${seeded.rows_per_second} rows/s`);
  const { rows: items } = await pool.query<Record<string, unknown>>(
    `SELECT id, content, status, priority, customer_name, customer_email, upvote_count,
       array_to_string(tags, ';') AS tags, created_at
     FROM suggestions
     WHERE business_id = $1`,
    [from.business.id],
  );
  const csv = stringify(
    items.map((item) => [...COLUMNS.map((column) => item[column]), (item.created_at as Date).toISOString()]),
    { header: true, columns: [...COLUMNS, 'created_at'] },
  );
  const chunks: Buffer[] = [];
  const bytes = Buffer.from(csv);
  for (let at = 0; at < bytes.length; at += 65_536) chunks.push(bytes.subarray(at, at + 65_536));
  const to = await createBusiness(pool, { name: 'Import target', plan: 'business' });
  const principal: Principal = {
    kind: 'user',
    businessId: to.business.id,
    role: 'owner',
    userId: to.owner.id,
    sessionId: 'bench',
    changeNumber: 0,
  };
  const started = performance.now();
  const report = await importCsv(
    pool,
    principal,
    Readable.from(chunks),
    { kind: 'suggestions', onError: 'all', dryRun: false, columns: {} },
    2 ** 30,
  );
  const seconds = (performance.now() - started) / 1000;
  if (report.created !== rows) throw new Error(`the import created ${report.created} of ${rows} rows`);
  const importRps = Math.round(rows / seconds);
  log(`imported ${rows} suggestions (${(bytes.length / 2 ** 20).toFixed(1)} MB): ${importRps} rows/s`);
  return {
    import_rows: rows,
    import_rows_per_second: importRps,
    seed_rows_per_second: seeded.rows_per_second,
    import_vs_seed_throughput_ratio: Math.round((importRps / seeded.rows_per_second) * 100) / 100,
  };
}
