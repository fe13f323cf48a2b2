import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The Node binary the servers under test run on: BENCH_NODE (e.g. Node 24 from the npm registry's
 * `node` package, as .ci/run installs it), else the one running the bench.
 */
const SERVER_NODE = process.env.BENCH_NODE || process.execPath;
export const nodeVersion = (node: string) => execFileSync(node, ['--version']).toString().trim();
export const SERVER_NODE_VERSION = nodeVersion(SERVER_NODE);

/**
 * Node `major` from the npm registry's `node` package (as .ci/run takes Node 24), installed under
 * `dir`: the path of its binary. Its platform binary comes from the same registry.
 */
export async function installNode(major: number, dir: string): Promise<string> {
  await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--silent', '--prefix', dir, `node@${major}`]);
  return `${dir}/node_modules/.bin/node`;
}

export interface Server {
  readonly pid: number;
  readonly url: string;
  stop(): Promise<void>;
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `node <args>` (BENCH_NODE's unless given) on a free loopback port with its output going to `logFile`, and waits (up to
 * 60 s) until GET `readyPath` answers 200. The process is the server itself (no npm in between), so
 * its pid is the one whose memory is sampled.
 */
export async function startServer(
  args: string[],
  env: Record<string, string>,
  logFile: string,
  readyPath: string,
  node = SERVER_NODE,
): Promise<Server> {
  const port = await freePort();
  const log = createWriteStream(logFile);
  await once(log, 'open');
  const child = spawn(node, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}; see ${logFile}`);
    const status = await fetch(url + readyPath).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) break;
    if (attempt >= 600) {
      await stopChild(child);
      throw new Error(`${args.join(' ')} did not become ready; see ${logFile}`);
    }
    await sleep(100);
  }
  return {
    pid: child.pid!,
    url,
    async stop() {
      await stopChild(child);
      log.end();
    },
  };
}

/** Runs the compiled admin CLI and returns its JSON output. */
export async function admin<T = Record<string, unknown>>(args: string[], env: Record<string, string>): Promise<T> {
  const child = spawn(process.execPath, ['dist/cli/admin.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`admin ${args.join(' ')} exited with ${code}`);
  return JSON.parse(stdout) as T;
}

/** Runs a command to completion, its output shown as it goes (the build). */
export async function run(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}
