import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

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

/**
 * Drives load with autocannon in a process of its own, so the client never shares an event loop
 * with a server (it shares the machine: the figures that matter are ratios taken side by side).
 */
export async function runLoad(request: LoadRequest): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '-c', String(request.connections), '-d', String(request.seconds)];
  args.push('-m', request.method ?? 'GET');
  if (request.rate !== undefined) args.push('-R', String(Math.max(1, Math.round(request.rate))));
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
  const result = JSON.parse(stdout) as AutocannonJson;
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
