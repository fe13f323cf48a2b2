import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testMode } from './database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Environment pointing a child process at this run's database: PostgreSQL, or a fresh DATA_DIR. */
export function databaseEnv(): Record<string, string> {
  if (testMode() === 'postgres') return { DATABASE_URL: process.env.TEST_DATABASE_URL!, DATA_DIR: '' };
  return { DATABASE_URL: '', DATA_DIR: mkdtempSync(join(tmpdir(), 'fbk-proc-')) };
}

function runTs(script: string, args: string[], env: Record<string, string>): ChildProcess {
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

export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = runTs('src/cli/admin.ts', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
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

/** Starts `src/main.ts` on a free port and waits until it listens (and, unless told otherwise, is healthy). */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 30_000,
  { waitHealthy = true } = {},
): Promise<ServerProcess> {
  const child = runTs('src/main.ts', [], { PORT: '0', HOST: '127.0.0.1', ...env });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('')}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /"port":(\d+).*"msg":"listening"/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${output.join('')}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  const healthy = () =>
    fetch(`${baseUrl}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
  while (waitHealthy && !(await healthy())) {
    if (Date.now() > deadline) throw new Error(`server never became healthy:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
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
