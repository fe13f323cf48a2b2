import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { CLI_RUN_MS, SERVER_START_MS } from './budgets.js';
import { testMode } from './database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Environment pointing a child process at this run's database: PostgreSQL, or a DATA_DIR of its own,
 * copied from the run's migrated template (global-setup.ts) so that starting does not run initdb.
 * Starting from an empty directory is test/db/embedded.test.ts's subject. The copies live in the
 * run's temporary directory, removed when the run ends.
 */
export function databaseEnv(): Record<string, string> {
  if (testMode() === 'postgres') return { DATABASE_URL: process.env.TEST_DATABASE_URL!, DATA_DIR: '' };
  const template = inject('dataDirTemplate');
  const dir = mkdtempSync(join(dirname(template), 'proc-'));
  cpSync(join(template, 'pgdata'), join(dir, 'pgdata'), { recursive: true });
  return { DATABASE_URL: '', DATA_DIR: dir };
}

export function runTs(script: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the admin CLI; a run still going after `deadlineMs` is killed and fails with what it printed. */
export async function runCli(args: string[], env: Record<string, string>, deadlineMs = CLI_RUN_MS): Promise<CliResult> {
  const child = runTs('src/cli/admin.ts', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    child.kill('SIGKILL');
  }, deadlineMs);
  const code = await closed.finally(() => clearTimeout(timer));
  if (late) throw new Error(`admin ${args.join(' ')} killed after ${deadlineMs} ms:\n${stdout}${stderr}`);
  return { code, stdout, stderr };
}

/** The admin CLI's JSON output, failing loudly with its stderr when it did not succeed. */
export async function cliJson<T = Record<string, unknown>>(args: string[], env: Record<string, string>): Promise<T> {
  const result = await runCli(args, env);
  if (result.code !== 0) throw new Error(`admin ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: string[];
  /** Sends the signal and resolves with the exit code (null if it had to be killed after timeoutMs). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts `src/main.ts` on a free port and waits until it is ready: it has logged that it listens and,
 * unless told otherwise, /health answers 200. Everything shares one deadline; a server not ready by
 * then is killed and the error carries its output.
 */
export async function startServer(
  env: Record<string, string>,
  deadlineMs = SERVER_START_MS,
  { waitHealthy = true } = {},
): Promise<ServerProcess> {
  const deadline = Date.now() + deadlineMs;
  const child = runTs('src/main.ts', [], { PORT: '0', HOST: '127.0.0.1', ...env });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const fail = (why: string) => {
    child.kill('SIGKILL');
    return new Error(`server ${why}:\n${output.join('')}`);
  };

  // Polled rather than matched per chunk: a log line may arrive split across chunks.
  const listeningPort = () => /"port":(\d+)[^\n]*"msg":"listening"/.exec(output.join(''))?.[1];
  while (listeningPort() === undefined) {
    if (gone()) throw fail(`exited with ${child.exitCode ?? child.signalCode}`);
    if (Date.now() > deadline) throw fail(`did not listen within ${deadlineMs} ms`);
    await sleep(50);
  }
  const baseUrl = `http://127.0.0.1:${listeningPort()}`;
  const healthy = () =>
    fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(Math.max(deadline - Date.now(), 1)) }).then(
      (r) => r.status === 200,
      () => false,
    );
  while (waitHealthy && !(await healthy())) {
    if (gone()) throw fail(`exited with ${child.exitCode ?? child.signalCode}`);
    if (Date.now() > deadline) throw fail(`was not healthy within ${deadlineMs} ms`);
    await sleep(100);
  }
  return {
    child,
    baseUrl,
    output,
    async stop(signal = 'SIGTERM', stopTimeoutMs = 15_000) {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
