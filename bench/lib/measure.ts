import http from 'node:http';
import type pg from 'pg';
import { runLoad, type LoadRequest, type LoadResult } from './load.js';
import { rssBytes, sampleRss } from './proc.js';
import { csvEncoder } from '../../src/exports/export.csv.js';
import { CURSOR_BATCH_SIZE } from '../../src/exports/export.cursor.js';
import type { ExportRecord } from '../../src/exports/export.encoder.js';
import { openExport, suggestionExport } from '../../src/exports/export.service.js';
import { copyTime } from './database.js';
import { median } from './stats.js';

export interface Timing {
  /** Seconds per measured run, and per warm-up run. */
  seconds: number;
  warmupSeconds: number;
  /** Measured runs per target, taken in turn (target A, B, C, then A, B, C again...). */
  rounds: number;
  log: (message: string) => void;
}

/**
 * A load run that answered anything but 2xx is a broken benchmark, never a figure; so is a measured
 * run that completed nothing. A warm-up may: a search counting a million rows can outlast it.
 */
function checked(name: string, result: LoadResult, warmUp = false): LoadResult {
  if (result.non2xx > 0 || result.errors > 0 || (result.requests === 0 && !warmUp)) {
    throw new Error(`${name}: ${result.non2xx} non-2xx responses and ${result.errors} errors in ${result.requests}`);
  }
  return result;
}

/** A load on a server, or a measurement made in this process (a floor) for that many seconds. */
export type Target = LoadRequest | ((seconds: number) => Promise<LoadResult>);

const run = (target: Target, seconds: number) =>
  typeof target === 'function' ? target(seconds) : runLoad({ ...target, seconds });

/**
 * Every target warmed up once, then measured `rounds` times, alternately, so that whatever else the
 * machine does at the time weighs on all of them alike. Ratios are taken round by round.
 */
export async function alternate<K extends string>(
  targets: Record<K, Target>,
  timing: Timing,
): Promise<Record<K, LoadResult[]>> {
  const names = Object.keys(targets) as K[];
  const results = Object.fromEntries(names.map((name) => [name, [] as LoadResult[]])) as Record<K, LoadResult[]>;
  for (const name of names) {
    timing.log(`  warming up ${name}`);
    checked(name, await run(targets[name], timing.warmupSeconds), true);
  }
  for (let round = 1; round <= timing.rounds; round++) {
    for (const name of names) {
      const result = checked(name, await run(targets[name], timing.seconds));
      timing.log(
        `  round ${round} ${name}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`,
      );
      results[name].push(result);
    }
  }
  return results;
}

/** Median over the rounds of a/b, each round's pair measured back to back. */
export function medianRatio(a: LoadResult[], b: LoadResult[], figure: (r: LoadResult) => number): number {
  return median(a.map((result, i) => figure(result) / figure(b[i]!)));
}

export const medianOf = (results: LoadResult[], figure: (r: LoadResult) => number) => median(results.map(figure));

export interface ExportFigures {
  exportMs: number;
  copyMs: number;
  ratio: number;
  /** The same export without HTTP, in this process (stackFloorTime). */
  stackFloorMs: number;
  stackFloorRatio: number;
  rssGrowthMb: number;
  bytes: number;
}

const WARMUPS = 3;

/** GET `url` and read the body to its end, only counting bytes (as the COPY side does). */
function download(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * The floor of a CSV export given its stack: the service's own export SQL through its pg cursor into
 * csv-stringify (the service's encoder), into a null sink, in this process; ms. What the HTTP export
 * adds to it is the framework, the response stream and the client's reading.
 */
export async function stackFloorTime(pool: pg.Pool, businessId: string, columns: readonly string[]): Promise<number> {
  const started = performance.now();
  const run = await openExport(pool, suggestionExport, businessId, {});
  const encoder = csvEncoder(columns);
  let bytes = encoder.begin().length;
  try {
    for (let batch = await run.read(); batch.length > 0; batch = await run.read()) {
      bytes += encoder.encode(batch).length;
    }
    bytes += encoder.end().length;
  } finally {
    await run.close('commit');
  }
  if (bytes === 0) throw new Error('the stack floor encoded nothing');
  return performance.now() - started;
}

/**
 * The CSV export over HTTP (every byte read) against COPY of the same rows and columns, and against
 * the stack floor (`floor`), in turns, after WARMUPS of each. The server's RSS is sampled every 5 ms during each export; the growth
 * reported is the largest over the runs, the first (cold) one included.
 */
export async function measureExport(
  serverPid: number,
  url: string,
  headers: Record<string, string>,
  copyClient: pg.Client,
  copySql: string,
  floor: () => Promise<number>,
  runs: number,
  log: (message: string) => void,
): Promise<ExportFigures> {
  const exportOnce = async () => {
    const before = rssBytes(serverPid);
    const sampler = sampleRss(serverPid);
    const started = performance.now();
    const { status, bytes } = await download(url, headers);
    const ms = performance.now() - started;
    const peak = sampler.stop();
    if (status !== 200) throw new Error(`export answered ${status}`);
    return { ms, growth: (peak - before) / 2 ** 20, bytes };
  };
  // Warm-ups, not timed: the server's code has just been loaded, PostgreSQL's has not. The first
  // (cold) run still counts for memory.
  const growths = [(await exportOnce()).growth];
  for (let i = 0; i < WARMUPS; i++) {
    growths.push((await exportOnce()).growth);
    await copyTime(copyClient, copySql);
    await floor();
  }
  const exportMs: number[] = [];
  const copyMs: number[] = [];
  const floorMs: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const exported = await exportOnce();
    const copied = await copyTime(copyClient, copySql);
    const floored = await floor();
    log(
      `  export ${Math.round(exported.ms)} ms (+${exported.growth.toFixed(1)} MB RSS), COPY ${Math.round(copied.ms)} ms, ` +
        `stack floor ${Math.round(floored)} ms`,
    );
    exportMs.push(exported.ms);
    copyMs.push(copied.ms);
    floorMs.push(floored);
    growths.push(exported.growth);
    bytes = exported.bytes;
  }
  return {
    exportMs: median(exportMs),
    copyMs: median(copyMs),
    ratio: median(exportMs.map((ms, i) => ms / copyMs[i]!)),
    stackFloorMs: median(floorMs),
    stackFloorRatio: median(exportMs.map((ms, i) => ms / floorMs[i]!)),
    rssGrowthMb: Math.max(...growths),
    bytes,
  };
}

/**
 * The export's own CSV encoding alone (csv-stringify and the formula guard, in the export's batches)
 * of `records` already in memory: ms, the median of `runs` after as many warm-ups. Part of every
 * export's time that no database or network work can take back.
 */
export function encodeTime(records: ExportRecord[], columns: readonly string[], runs: number): number {
  const once = () => {
    const started = performance.now();
    const encoder = csvEncoder(columns);
    encoder.begin();
    for (let i = 0; i < records.length; i += CURSOR_BATCH_SIZE) {
      encoder.encode(records.slice(i, i + CURSOR_BATCH_SIZE));
    }
    encoder.end();
    return performance.now() - started;
  };
  for (let i = 0; i < runs; i++) once();
  return median(Array.from({ length: runs }, once));
}
