/**
 * The similar finder's statement under EXPLAIN (ANALYZE, BUFFERS) for what a visitor types, on a seeded
 * database (issue 42): `npx tsx bench/similarity/explain-finder.ts <database url> <business id> [--plans]`.
 * Prints each typed prefix's execution time and shared buffers, and the median over them.
 */
import pg from 'pg';
import { findSimilarToText } from '../../src/merges/merge.similarity.js';
import { TYPED_PREFIXES } from '../lib/public-rows.js';

const [url, businessId, ...rest] = process.argv.slice(2);
if (!url || !businessId) throw new Error('usage: explain-finder.ts <database url> <business id> [--plans] [text...]');
const showPlans = rest.includes('--plans');
const texts = rest.filter((a) => a !== '--plans');
const client = new pg.Client({ connectionString: url });
await client.connect();
const times: number[] = [];
try {
  for (const text of texts.length > 0 ? texts : TYPED_PREFIXES) {
    let plan:
      | {
          'Execution Time': number;
          'Planning Time': number;
          Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
        }
      | undefined;
    let text2 = '';
    await findSimilarToText(
      {
        query: (async (sql: string, params: unknown[]) => {
          const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
            `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
            params,
          );
          plan = (rows[0]!['QUERY PLAN'] as [typeof plan])[0];
          if (showPlans) {
            const t = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
            text2 = t.rows.map((r) => r['QUERY PLAN']).join('\n');
          }
          return { rows: [] };
        }) as never,
      },
      businessId,
      text,
      { limit: 5, scope: 'public' },
    );
    times.push(plan!['Execution Time']);
    const buffers = plan!.Plan['Shared Hit Blocks'] + plan!.Plan['Shared Read Blocks'];
    console.log(
      `${plan!['Execution Time'].toFixed(2).padStart(8)} ms  plan ${plan!['Planning Time'].toFixed(2).padStart(6)} ms  ${String(buffers).padStart(6)} buffers  ${JSON.stringify(text)}`,
    );
    if (showPlans) console.log(text2);
  }
} finally {
  await client.end();
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(2)} ms, sum ${times.reduce((a, b) => a + b, 0).toFixed(0)} ms over ${times.length}`,
);
