import { setTimeout as sleep } from 'node:timers/promises';
import { runLoad, timedGetsOf, type LoadResult } from './load.js';
import { medianOf, medianRatio, type Timing } from './measure.js';
import { round } from './stats.js';

/**
 * One business's owner flooding their suggestion pages, and another business's list beside it (issue
 * 39): the list's p50 beside the flood against its p50 alone, on an instance with the business share
 * at its default (BUSINESS_REQUESTS_IN_FLIGHT) and, for comparison, on one where it is raised out of
 * the way (every other figure's instance). The per-credential budget is raised on both, as everywhere
 * in the bench: the flooder stands for a business with as many keys and members as it takes.
 */
export interface PageFlood {
  /** The instance with the default share, and the one with the share raised. */
  shared: string;
  unshared: string;
  /** The flooder's page (a suggestion of theirs) and session; the other business's key. */
  floodPath: string;
  floodSession: string;
  listKey: string;
  timing: Timing;
}

/** The flood's connections, as every load of the bench; the list's, a modest integration's. */
const FLOOD_CONNECTIONS = 50;
const LIST_CONNECTIONS = 4;
/** The flood starts this long before the list is measured, so that its line is full by then. */
const FLOOD_LEAD_MS = 1_000;
/**
 * After the flood's client stops, its instance still serves what it had accepted (50 pages without the
 * share, a handful with it: waiting requests whose client left are dropped). The next round waits this
 * long, or it would be measured beside the other instance's drain.
 */
const DRAIN_MS = 3_000;

/** The list for `seconds`, alone or while the flood runs (in a process of its own) on the same instance. */
async function listRound(base: string, flood: PageFlood, seconds: number, beside: boolean) {
  const list = () =>
    timedGetsOf([`${base}/api/v1/suggestions?limit=50`], LIST_CONNECTIONS, seconds, { 'x-api-key': flood.listKey });
  if (!beside) return { list: await list(), flood: undefined };
  const flooding = runLoad({
    url: `${base}${flood.floodPath}`,
    connections: FLOOD_CONNECTIONS,
    seconds: seconds + Math.ceil((FLOOD_LEAD_MS + 1_000) / 1000),
    headers: { cookie: `fb_session=${flood.floodSession}` },
    ownProcess: true,
  });
  await sleep(FLOOD_LEAD_MS);
  const measured = await list();
  const load = await flooding;
  // A flood that served nothing measures a stuck instance, not a share: a broken benchmark, never a figure.
  if (load.ok === 0) throw new Error(`page flood: the flooded instance served no page (${load.non2xx} refused)`);
  await sleep(DRAIN_MS);
  return { list: measured, flood: load };
}

export async function measurePageFlood(flood: PageFlood): Promise<Record<string, number>> {
  const { timing } = flood;
  const runs = {
    alone: [] as LoadResult[],
    beside: [] as LoadResult[],
    alone_unshared: [] as LoadResult[],
    beside_unshared: [] as LoadResult[],
  };
  const floods = { shared: [] as LoadResult[], unshared: [] as LoadResult[] };
  for (const base of [flood.shared, flood.unshared]) await listRound(base, flood, timing.warmupSeconds, true);
  for (let round_ = 1; round_ <= timing.rounds; round_++) {
    for (const [name, base, beside] of [
      ['alone', flood.shared, false],
      ['beside', flood.shared, true],
      ['alone_unshared', flood.unshared, false],
      ['beside_unshared', flood.unshared, true],
    ] as const) {
      const { list, flood: load } = await listRound(base, flood, timing.seconds, beside);
      runs[name].push(list);
      if (load) floods[base === flood.shared ? 'shared' : 'unshared'].push(load);
      const pages = load ? `; the flood ${Math.round(load.rps)} pages/s, ${load.non2xx} refused` : '';
      timing.log(`  round ${round_} list ${name}: p50 ${list.p50} ms, p99 ${list.p99} ms${pages}`);
    }
  }
  const p50 = (r: LoadResult) => r.p50;
  const rps = (r: LoadResult) => r.rps;
  return {
    page_flood_list_alone_p50_ms: medianOf(runs.alone, p50),
    page_flood_list_beside_p50_ms: medianOf(runs.beside, p50),
    page_flood_list_beside_vs_alone_p50_ratio: round(medianRatio(runs.beside, runs.alone, p50)),
    page_flood_pages_rps: Math.round(medianOf(floods.shared, rps)),
    page_flood_unshared_list_beside_p50_ms: medianOf(runs.beside_unshared, p50),
    page_flood_unshared_list_beside_vs_alone_p50_ratio: round(
      medianRatio(runs.beside_unshared, runs.alone_unshared, p50),
    ),
    page_flood_unshared_pages_rps: Math.round(medianOf(floods.unshared, rps)),
  };
}
