import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { percentile, round } from './stats.js';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AUTOCANNON = require.resolve('autocannon/autocannon.js');

export interface LoadRequest {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  /** Requests per second across all connections (autocannon -R); unbounded when absent. */
  rate?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Replace `[<id>]` in the request (headers included) with a new id for every request (autocannon -I). */
  idReplacement?: boolean;
  /**
   * Run the client in a process of its own: for a load beside a server in the bench process (the
   * webhook receiver), so that neither delays the other's event loop.
   */
  ownProcess?: boolean;
}

export interface LoadResult {
  /** Successful (2xx) responses per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** 2xx responses: for writes, the acknowledged ones. */
  ok: number;
  non2xx: number;
  errors: number;
}

interface AutocannonJson {
  duration: number;
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  requests: { total: number };
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  method: string;
  headers: Record<string, string>;
  body?: string;
  idReplacement: boolean;
  overallRate?: number;
}) => Promise<AutocannonJson>;

/**
 * Drives load with autocannon, in this process unless `ownProcess`: the bench process runs no server
 * while it measures one, and starting autocannon's process took half a second a run, about 50 s of
 * the quick run's five minutes.
 */
export async function runLoad(request: LoadRequest): Promise<LoadResult> {
  const result = request.ownProcess ? await autocannonProcess(request) : await autocannon(request);
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

// A search counting a million rows, with 50 of them queued, can take longer than autocannon's
// default 10 s timeout: slow is a figure, not an error.
const TIMEOUT_SECONDS = 60;
const overallRate = (request: LoadRequest) =>
  request.rate === undefined ? undefined : Math.max(1, Math.round(request.rate));

function autocannon(request: LoadRequest): Promise<AutocannonJson> {
  return (require('autocannon') as Autocannon)({
    url: request.url,
    connections: request.connections,
    duration: request.seconds,
    timeout: TIMEOUT_SECONDS,
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    body: request.body,
    idReplacement: request.idReplacement ?? false,
    overallRate: overallRate(request),
  });
}

async function autocannonProcess(request: LoadRequest): Promise<AutocannonJson> {
  const args = [AUTOCANNON, '--json', '-c', String(request.connections), '-d', String(request.seconds)];
  args.push('-t', String(TIMEOUT_SECONDS), '-m', request.method ?? 'GET');
  const rate = overallRate(request);
  if (rate !== undefined) args.push('-R', String(rate));
  for (const [name, value] of Object.entries(request.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (request.body !== undefined) args.push('-b', request.body);
  if (request.idReplacement) args.push('-I');
  args.push(request.url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as AutocannonJson;
}

/** What a timed loop of requests saw: each answer's latency, and how many were 2xx, other, or failed. */
interface Timed {
  latencies: number[];
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
}

/**
 * Sends one request after another on each of `connections` keep-alive connections for `seconds`,
 * timing each from its start to the end of its answer: `send` starts the request on the agent, with
 * the handler for its answer.
 */
async function timedRequests(
  connections: number,
  seconds: number,
  send: (agent: http.Agent, onAnswer: (res: http.IncomingMessage) => void) => http.ClientRequest,
): Promise<Timed> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const timed: Timed = { latencies: [], ok: 0, non2xx: 0, errors: 0, seconds: 0 };
  const until = performance.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      send(agent, (res) => {
        res.resume();
        res.on('end', () => {
          timed.latencies.push(performance.now() - started);
          if ((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) timed.ok++;
          else timed.non2xx++;
          resolve();
        });
      }).on('error', () => {
        timed.errors++;
        resolve();
      });
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  timed.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return timed;
}

/**
 * POSTs over `connections` keep-alive connections for `seconds`: `body` to `url`, or what `next()`
 * gives for each request (autocannon cannot vary the URL); with a fresh Idempotency-Key each when
 * `keyed` (autocannon replaces ids in bodies only, not in headers). Writes compared with each other
 * are all run with this same client, so their ratios compare like with like.
 */
export async function runPosts(
  request: { url: string; headers: Record<string, string>; body: string; connections: number; seconds: number },
  options: { keyed?: boolean; next?: () => { url: string; body: string } } = {},
): Promise<LoadResult> {
  const { latencies, ok, non2xx, errors, seconds } = await timedRequests(
    request.connections,
    request.seconds,
    (agent, onAnswer) => {
      const headers = { ...request.headers, ...(options.keyed ? { 'idempotency-key': `bench-${randomUUID()}` } : {}) };
      const { url, body } = options.next?.() ?? request;
      const req = http.request(url, { method: 'POST', agent, headers }, onAnswer);
      req.end(body);
      return req;
    },
  );
  return {
    rps: ok / seconds,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    requests: ok + non2xx,
    ok,
    non2xx,
    errors,
  };
}

/**
 * GETs of `urls` in turn over `connections` keep-alive connections for `seconds`, timed here to a
 * tenth of a millisecond (autocannon cannot vary the URL, nor tell 2 ms from 3). Throws on any
 * answer but a 2xx: a figure of refusals is no figure.
 */
export async function timedGetsOf(
  urls: readonly string[],
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  let next = 0;
  const timed = await timedRequests(connections, seconds, (agent, onAnswer) =>
    http.get(urls[next++ % urls.length]!, { agent, headers }, onAnswer),
  );
  const { latencies, ok, non2xx, errors } = timed;
  if (non2xx > 0 || errors > 0 || ok === 0) {
    throw new Error(`timed GETs: ${non2xx} non-2xx and ${errors} errors in ${ok + non2xx} answers`);
  }
  return {
    rps: ok / timed.seconds,
    p50: round(percentile(latencies, 50), 1),
    p99: round(percentile(latencies, 99), 1),
    requests: ok + non2xx,
    ok,
    non2xx,
    errors,
  };
}
