import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { reservablePort } from './ports.js';

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A throw-away redis-server of the test's own on a loopback port, so a test can kill or freeze it
 * without disturbing the machine's Redis, which other test files share.
 */
export class ThrowAwayRedis {
  #process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  /** Not started yet: what an instance finds when Redis is down at its start. */
  static async onFreePort(): Promise<ThrowAwayRedis> {
    return new ThrowAwayRedis(await reservablePort());
  }

  static async start(): Promise<ThrowAwayRedis> {
    const redis = await ThrowAwayRedis.onFreePort();
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (or again, on the same port, empty) and waits up to 5 s until it accepts connections. */
  async restart(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.#process = spawn('redis-server', [...args, '--daemonize', 'no'], { stdio: 'ignore' });
    for (let attempt = 0; attempt < 50; attempt++) {
      if (await accepts(this.port)) return;
      await sleep(100);
    }
    throw new Error(`redis-server did not come up on port ${this.port}`);
  }

  /** Kills the server outright, as a crash would. */
  async kill(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Freezes the server: connections stay open but nothing is answered, as with a hung host. */
  pause(): void {
    this.#process?.kill('SIGSTOP');
  }

  resume(): void {
    this.#process?.kill('SIGCONT');
  }
}
