/**
 * npx tsx bench/failover.ts [--failovers 3]: failover time as clients see it. A pg_auto_failover
 * formation on loopback (test/support/formation.ts), the app on its multi-host URI, four clients
 * writing continuously with Idempotency-Keys; `pg_autoctl perform failover` again and again. For each:
 * the first refused write to the first accepted one after it. Prints and writes the p50 to
 * bench/results/failover.json. Needs root (or the postgres user) and pg_autoctl.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/config/logger.js';
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { createRateLimiters } from '../src/http/rate-limit.js';
import { buildTenant } from '../test/support/factories.js';
import { startFormation } from '../test/support/formation.js';
import { ROOT } from './lib/processes.js';

const { values } = parseArgs({ options: { failovers: { type: 'string', default: '3' } } });
const FAILOVERS = Number(values.failovers);
const CLIENTS = 4;
const log = (message: string) => process.stderr.write(`failover: ${message}\n`);

const formation = await startFormation('bench_failover');
if (typeof formation === 'string') {
  log(`cannot run: ${formation}`);
  process.exit(1);
}
log(`formation up: ${formation.uri}`);
const db = openPostgres(formation.uri, () => undefined, 10, { connectTimeoutMs: 2_000 });
const logger = createLogger('silent');
const server = createApp({
  db,
  logger,
  rateLimiters: createRateLimiters({ limit: 1_000_000, failedAuthLimit: 1_000_000, logger }),
}).listen(0, '127.0.0.1');
await once(server, 'listening');
try {
  await migrate(db.pool);
  log('migrated');
  const tenant = await buildTenant(db);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rounds: { recoverSeconds: number; acknowledged: number; refused: number }[] = [];
  for (let round = 0; round < FAILOVERS; round++) {
    let running = true;
    let acknowledged = 0;
    let refused = 0;
    let firstRefusedAt: number | undefined;
    let recoveredAt: number | undefined;
    const client = async () => {
      for (let n = 0; running && n < 50_000; n++) {
        const key = randomUUID();
        // The same key until it is accepted, bounded.
        for (let attempt = 0; attempt < 600; attempt++) {
          const status = await fetch(`${base}/api/v1/suggestions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': tenant.write, 'idempotency-key': key },
            body: JSON.stringify({ content: `Bench idea ${n}` }),
            signal: AbortSignal.timeout(20_000),
          }).then(
            (res) => res.status,
            () => 0,
          );
          if (status === 201) {
            acknowledged++;
            if (firstRefusedAt && !recoveredAt) recoveredAt = Date.now();
            break;
          }
          refused++;
          firstRefusedAt ??= Date.now();
          await sleep(100);
        }
      }
    };
    const writing = Promise.all(Array.from({ length: CLIENTS }, client));
    await sleep(2_000);
    log(`failover ${round + 1}: performing`);
    await formation.failover();
    log(`failover ${round + 1}: the monitor has a new primary`);
    for (let wait = 0; wait < 300 && !recoveredAt; wait++) await sleep(100);
    await sleep(1_000);
    running = false;
    await writing;
    if (!firstRefusedAt || !recoveredAt) throw new Error(`failover ${round + 1}: no refusal or no recovery seen`);
    const recoverSeconds = (recoveredAt - firstRefusedAt) / 1000;
    rounds.push({ recoverSeconds, acknowledged, refused });
    log(`failover ${round + 1}: ${recoverSeconds.toFixed(2)} s, ${acknowledged} acknowledged, ${refused} refused`);
  }
  const sorted = rounds.map((r) => r.recoverSeconds).sort((a, b) => a - b);
  const result = {
    at: new Date().toISOString(),
    clients: CLIENTS,
    p50RecoverSeconds: sorted[Math.floor(sorted.length / 2)],
    rounds,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/failover.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  server.close();
  await db.close().catch(() => undefined);
  await formation.remove();
}
