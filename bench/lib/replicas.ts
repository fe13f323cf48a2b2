import { startStandby } from '../../test/support/standby.js';
import { runLoad, type LoadRequest, type LoadResult } from './load.js';
import { alternate, medianOf, medianRatio, type Timing } from './measure.js';
import { freePort, type Server } from './processes.js';
import { round } from './stats.js';

export interface ReplicaBench {
  /** The bench database's URL: its cluster gets a hot standby (test/support/standby.ts). */
  databaseUrl: string;
  /** Starts the service on the bench database with these variables added. */
  start: (env: Record<string, string>, name: string) => Promise<Server>;
  /** The create load (its URL's origin is replaced by each instance's). */
  create: LoadRequest;
  /** The reads, by path: 5 connections each, beside the creates. */
  reads: { export: LoadRequest; analytics: LoadRequest };
  timing: Timing;
  onCleanup: (cleanup: () => Promise<void>) => void;
}

/**
 * Issue 34: creates from the create load's connections while 10 clients read (5 exporting, 5 reading
 * the analytics overview), on an instance that reads those from a hot standby (DATABASE_READ_URL)
 * against one that reads them from the primary, in turns. Answers the creates' ratio, each side's
 * throughputs, and the share of the routed reads the replica answered (from the instance's metrics:
 * a replica past the bound sends them back to the primary). No figures when no standby can start.
 */
export async function measureReplicaReads(bench: ReplicaBench): Promise<Record<string, number>> {
  const { timing } = bench;
  const standby = await startStandby(bench.databaseUrl);
  if (typeof standby === 'string') {
    timing.log(`  skipped: ${standby}`);
    return {};
  }
  bench.onCleanup(() => standby.remove());
  const metricsPort = await freePort();
  const onReplica = await bench.start(
    { DATABASE_READ_URL: standby.url, METRICS_PORT: String(metricsPort) },
    'service-replica-reads',
  );
  const onPrimary = await bench.start({}, 'service-primary-reads');
  const readRuns: Record<string, LoadResult[]> = {};
  const path = (request: LoadRequest) => new URL(request.url).pathname + new URL(request.url).search;
  const mixed = (name: string, base: string) => async (seconds: number) => {
    const readLoad = (request: LoadRequest) =>
      runLoad({ ...request, url: `${base}${path(request)}`, connections: 5, seconds, ownProcess: true });
    const [creates, exports, overviews] = await Promise.all([
      runLoad({ ...bench.create, url: `${base}${path(bench.create)}`, seconds }),
      readLoad(bench.reads.export),
      readLoad(bench.reads.analytics),
    ]);
    for (const [kind, result] of Object.entries({ export: exports, analytics: overviews })) {
      if (result.non2xx > 0 || result.errors > 0) {
        throw new Error(`${name} ${kind}: ${result.non2xx} non-2xx responses and ${result.errors} errors`);
      }
      (readRuns[`${name}_${kind}`] ??= []).push(result);
    }
    return creates;
  };
  const runs = await alternate(
    { on_replica: mixed('on_replica', onReplica.url), on_primary: mixed('on_primary', onPrimary.url) },
    timing,
  );
  const scrape = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const readsTo = (target: string) =>
    scrape
      .split('\n')
      .filter((line) => line.startsWith(`db_reads_total{target="${target}"`))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  await onReplica.stop();
  await onPrimary.stop();
  await standby.remove();

  const rps = (r: LoadResult) => r.rps;
  const readRps = (key: string) => Math.round(medianOf(readRuns[key]!, rps));
  const replicaShare = readsTo('replica') / Math.max(1, readsTo('replica') + readsTo('primary'));
  timing.log(
    `  creates ${Math.round(medianOf(runs.on_replica, rps))}/s with the reads on the replica, ` +
      `${Math.round(medianOf(runs.on_primary, rps))}/s on the primary; ${round(replicaShare)} of reads on the replica`,
  );
  return {
    replica_reads_create_vs_primary_reads_create_throughput_ratio: round(
      medianRatio(runs.on_replica, runs.on_primary, rps),
    ),
    create_with_replica_reads_rps: Math.round(medianOf(runs.on_replica, rps)),
    create_with_primary_reads_rps: Math.round(medianOf(runs.on_primary, rps)),
    replica_reads_export_rps: readRps('on_replica_export'),
    primary_reads_export_rps: readRps('on_primary_export'),
    replica_reads_analytics_rps: readRps('on_replica_analytics'),
    primary_reads_analytics_rps: readRps('on_primary_analytics'),
    replica_reads_share: round(replicaShare),
  };
}
