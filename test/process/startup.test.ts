import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { budgetFor, EMBEDDED_INITDB_MS, SERVER_START_MS } from '../support/budgets.js';
import { testMode } from '../support/database.js';
import { PASSWORD, postPageForm } from '../support/dashboard.js';
import { runTs } from '../support/processes.js';

/**
 * The first line is written before the embedded database is opened, not after: the opening of an
 * empty DATA_DIR (initdb) lies between it and "migrating the database", seconds on any machine, where
 * two lines written one after the other are milliseconds apart. Read from pino's own `time`, so a
 * loaded machine that is slow to start the process (tsx) moves neither; a bound on the time since the
 * spawn failed under CI's load (7.3 s against 5 s) without anything being wrong.
 */
const OPENING_AT_LEAST_MS = 250;

interface LogLine {
  level: number;
  msg: string;
  /** When the test read it, in ms after the spawn. */
  at: number;
  /** When the process wrote it (pino, ms since the epoch). */
  time: number;
  url?: string;
  res?: { statusCode: number };
}

describe('npm start on an empty data directory', () => {
  it.runIf(testMode() === 'embedded')(
    'When the server starts on an empty database, then it says at once that it opens the database, then that it migrates, then where it is ready, then the one-time first-run link, which makes the business and signs its owner in; health polls log no error',
    { timeout: budgetFor({ serverStarts: 1, initdbs: 1 }) },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'startup-'));
      const started = Date.now();
      const child = runTs('src/main.ts', [], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '' });
      const lines: LogLine[] = [];
      let partial = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        const text = partial + chunk.toString();
        const complete = text.split('\n');
        partial = complete.pop()!;
        for (const line of complete) lines.push({ ...(JSON.parse(line) as LogLine), at: Date.now() - started });
      });
      const find = (msg: RegExp) => lines.find((line) => msg.test(line.msg));
      const until = async (msg: RegExp, deadline = started + SERVER_START_MS + EMBEDDED_INITDB_MS) => {
        while (!find(msg) && child.exitCode === null && Date.now() < deadline) await sleep(10);
        const found = find(msg);
        if (!found) throw new Error(`no line ${String(msg)}:\n${JSON.stringify(lines, null, 1)}`);
        return found;
      };
      try {
        const listening = (await until(/^listening$/)) as LogLine & { port: number };
        // Polled from the moment it listens until it is ready: the 503s of the start among them.
        const statuses: number[] = [];
        for (let i = 0; i < 2_000 && statuses.at(-1) !== 200; i++) {
          statuses.push((await fetch(`http://127.0.0.1:${listening.port}/health`)).status);
          await sleep(5);
        }
        expect(statuses.at(-1)).toBe(200);
        // Migrating an empty database takes a few hundred milliseconds: health was refused meanwhile.
        expect(statuses).toContain(503);
        // Written as it became ready: on its way through the pipe, if not here already.
        const ready = await until(/^ready at /, Date.now() + 5_000);

        const first = lines[0]!;
        expect(first.msg).toBe('opening the embedded database');
        const migrating = find(/^migrating the database$/)!;
        expect(migrating).toBeDefined();
        expect(migrating.time - first.time).toBeGreaterThanOrEqual(OPENING_AT_LEAST_MS);
        expect(ready.url).toBe(`http://127.0.0.1:${listening.port}`);
        expect(ready.msg).toBe(`ready at ${ready.url}`);
        expect(lines.indexOf(first)).toBeLessThan(lines.indexOf(migrating));
        expect(lines.indexOf(migrating)).toBeLessThan(lines.indexOf(ready));
        // Each poll's request line is written once its answer is sent: the last may still be in the pipe.
        const logged = () => lines.filter((line) => line.res !== undefined).length;
        for (let i = 0; i < 500 && logged() < statuses.length; i++) await sleep(10);
        expect(logged()).toBe(statuses.length);
        // The health checks' 503s while migrating are not errors; nothing else is either.
        expect(lines.filter((line) => line.level >= 50)).toEqual([]);

        // No business yet: once ready, start-up logs the one-time link to the first run in the browser,
        // at PUBLIC_BASE_URL (unset here: the default), its token in the fragment so no request log sees it.
        const setup = await until(/^no business yet: open /, Date.now() + 5_000);
        expect(lines.indexOf(ready)).toBeLessThan(lines.indexOf(setup));
        const link = new URL(setup.url!);
        expect(setup.msg).toBe(`no business yet: open ${setup.url} to create the first one`);
        expect(`${link.origin}${link.pathname}`).toBe('http://localhost:3000/app/setup');
        const token = decodeURIComponent(link.hash.replace(/^#token=/, ''));
        expect(token).toMatch(/^\S{20,}$/);
        // Opened and filled on the running server, the link makes the business and signs its owner in.
        const agent = supertest.agent(ready.url);
        expect((await agent.get('/app/setup')).status).toBe(200);
        const made = await postPageForm(agent, '/app/setup', '/app/setup', {
          token,
          business_name: 'Café Lumière',
          name: 'Ana Silva',
          email: 'ana@example.com',
          password: PASSWORD,
        });
        expect(made.status).toBe(303);
        expect(made.headers.location).toMatch(/^\/app\/b\/[0-9a-f-]{36}$/);
        const home = await agent.get(made.headers.location as string);
        expect(home.status).toBe(200);
        expect(home.text).toContain('Ana Silva');
        expect(home.text).toContain('Café Lumière');
        // The first run is over: the page is gone, and the token was only ever in the one log line.
        expect((await agent.get('/app/setup')).status).toBe(404);
        await sleep(200);
        expect(lines.filter((line) => JSON.stringify(line).includes(token))).toEqual([setup]);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
