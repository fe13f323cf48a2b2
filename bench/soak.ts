/**
 * npm run bench -- --soak [--seconds 300]: mixed reads and writes at 80% of the measured capacity for
 * five minutes, against the compiled server on PostgreSQL. Pass criteria: zero 5xx (indeed zero non-2xx),
 * no acknowledged write lost, and server RSS over the last minute no more than 10% above the first minute after
 * warm-up (medians of samples every 5 s).
 * Writes bench/results/soak.json and prints it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createBenchDatabase, dropBenchDatabase, withClient } from './lib/database.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { rssBytes } from './lib/proc.js';
import { ROOT, run, startServer } from './lib/processes.js';
import { createTenant, seedWithCli } from './lib/setup.js';

const { values } = parseArgs({
  options: { soak: { type: 'boolean' }, seconds: { type: 'string', default: '300' } },
});
const SECONDS = Number(values.seconds);
const WARMUP_SECONDS = 30;
const CONNECTIONS = 20;
const SAMPLE_MS = 5_000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (message: string) => process.stderr.write(`soak: ${message}\n`);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function storedSuggestions(databaseUrl: string, businessId: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM suggestions WHERE business_id = $1',
      [businessId],
    );
    return rows[0]!.n;
  });
}

async function main() {
  await run('npm', ['run', '--silent', 'build']);
  const workDir = mkdtempSync(join(os.tmpdir(), 'fbk-soak-'));
  const databaseUrl = await createBenchDatabase(SERVER_URL);
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: '' };
  const server = await startServer(
    ['dist/main.js'],
    {
      ...env,
      RATE_LIMIT_PER_MINUTE: '1000000000',
      RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '1000000000',
      // One business is the whole load here: its share of the instance is raised like its budgets.
      BUSINESS_REQUESTS_IN_FLIGHT: '1000000000',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
    },
    join(workDir, 'server.log'),
    '/health',
  );
  try {
    const tenant = await createTenant('soak', env);
    await seedWithCli(tenant, 10_000, env);
    const headers = { 'X-API-Key': tenant.key };
    const read = { url: `${server.url}/api/v1/suggestions?limit=50`, headers, connections: CONNECTIONS };
    const write = {
      url: `${server.url}/api/v1/suggestions`,
      method: 'POST' as const,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'Soak test: the terrace heaters are great', priority: 'low' }),
      connections: 4,
    };

    log('measuring capacity (reads, 10 s)');
    const capacity = (await runLoad({ ...read, seconds: 10 })).rps;
    const target = capacity * 0.8;
    const rates = { reads: target * 0.8, writes: target * 0.2 };
    log(`capacity ${Math.round(capacity)} rps; soaking at ${Math.round(target)} rps (80 %)`);

    const mixed = (seconds: number) =>
      Promise.all([
        runLoad({ ...read, seconds, rate: rates.reads }),
        runLoad({ ...write, seconds, rate: rates.writes }),
      ]);
    await mixed(WARMUP_SECONDS);
    const before = await storedSuggestions(databaseUrl, tenant.id);

    log(`soaking for ${SECONDS} s`);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssBytes(server.pid)), SAMPLE_MS);
    const [reads, writes] = await mixed(SECONDS);
    clearInterval(sampler);
    const stored = (await storedSuggestions(databaseUrl, tenant.id)) - before;

    const acknowledged = writes.ok;
    const figures = (r: LoadResult) => ({
      rps: Math.round(r.rps),
      p50_ms: r.p50,
      p99_ms: r.p99,
      requests: r.requests,
      non_2xx: r.non2xx,
      errors: r.errors,
    });
    // A single RSS reading swings by a fifth with the collector's heap sizing: compare the median of
    // the first minute's samples (just after warm-up) with the median of the last minute's.
    const perMinute = 60_000 / SAMPLE_MS;
    const rssAfterWarmup = median(samples.slice(0, perMinute));
    const rssEnd = median(samples.slice(-perMinute));
    const rssGrowthPct = Math.round(((rssEnd - rssAfterWarmup) / rssAfterWarmup) * 1000) / 10;
    const result = {
      generated_at: new Date().toISOString(),
      seconds: SECONDS,
      capacity_rps: Math.round(capacity),
      target_rps: Math.round(target),
      reads: figures(reads),
      writes: figures(writes),
      acknowledged_writes: acknowledged,
      stored_writes: stored,
      rss_first_minute_median_mb: mb(rssAfterWarmup),
      rss_last_minute_median_mb: mb(rssEnd),
      rss_peak_mb: mb(Math.max(...samples)),
      rss_samples_mb: samples.map(mb),
      rss_growth_pct: rssGrowthPct,
      machine: { cores: os.cpus().length, node: process.version, load_average: os.loadavg() },
      pass: {
        zero_5xx: reads.non2xx + writes.non2xx === 0 && reads.errors + writes.errors === 0,
        no_acknowledged_write_lost: stored >= acknowledged,
        // A leak shows as growth; memory the collector hands back after the warm-up is no failure.
        rss_growth_within_10_percent: rssGrowthPct <= 10,
      },
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/soak.json'), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (!Object.values(result.pass).every(Boolean)) process.exitCode = 1;
  } finally {
    await server.stop();
    await dropBenchDatabase(SERVER_URL, databaseUrl);
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
