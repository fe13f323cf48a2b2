import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useTestApp } from '../support/app.js';
import { budgetFor } from '../support/budgets.js';
import { testMode } from '../support/database.js';
import { buildTenant } from '../support/factories.js';
import { databaseEnv, startServer } from '../support/processes.js';

const ctx = useTestApp();
const BURST = 60;

interface Answer {
  status: number;
  text: string;
  replayed: boolean;
}

describe.skipIf(testMode() !== 'postgres')(
  'SIGKILL during keyed creates (PostgreSQL only)',
  { timeout: budgetFor({ serverStarts: 2 }) },
  () => {
    it('When the server is killed mid-burst, then each retry replays a committed create or runs once, and nothing is duplicated', async () => {
      const t = await buildTenant(ctx.db);
      const env = { ...databaseEnv(), RATE_LIMIT_PER_MINUTE: '100000' };
      const keys = Array.from({ length: BURST }, () => crypto.randomUUID());
      const post = (baseUrl: string, i: number): Promise<Answer> =>
        fetch(`${baseUrl}/api/v1/suggestions`, {
          method: 'POST',
          headers: { 'X-API-Key': t.write, 'Content-Type': 'application/json', 'Idempotency-Key': keys[i]! },
          body: JSON.stringify({ content: `keyed ${i}` }),
        }).then(
          async (r) => ({ status: r.status, text: await r.text(), replayed: r.headers.has('idempotent-replayed') }),
          () => ({ status: 0, text: '', replayed: false }),
        );

      const first = await startServer(env);
      onTestFinished(async () => {
        await first.stop('SIGKILL');
      });
      // Killed once a sixth of the burst is answered: the rest is in flight or not yet sent.
      let answered = 0;
      let enough!: () => void;
      const killNow = new Promise<void>((resolve) => (enough = resolve));
      const burst = Array.from({ length: BURST }, (_, i) =>
        sleep(i * 4)
          .then(() => post(first.baseUrl, i))
          .then((answer) => {
            if (answer.status === 201 && ++answered === BURST / 6) enough();
            return answer;
          }),
      );
      await Promise.race([killNow, Promise.all(burst)]);
      await first.stop('SIGKILL');
      const before = await Promise.all(burst);
      expect(before.some((answer) => answer.status === 201)).toBe(true);
      expect(before.some((answer) => answer.status === 0)).toBe(true);
      expect(before.every((answer) => answer.status === 201 || answer.status === 0)).toBe(true);

      // The killed server's transactions end as its connections drop: wait until none is left open.
      for (let tries = 0; tries < 100; tries++) {
        const { rows } = await ctx.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid()
             AND application_name = 'feedback-api' AND state <> 'idle'`,
        );
        if (rows[0]!.n === 0) break;
        await sleep(100);
      }
      const committed = new Map(
        (
          await ctx.db.pool.query<{ id: string; content: string }>(
            'SELECT id, content FROM suggestions WHERE business_id = $1',
            [t.business.id],
          )
        ).rows.map((row) => [row.content, row.id]),
      );

      const second = await startServer(env);
      onTestFinished(async () => {
        await second.stop('SIGKILL');
      });
      const after = await Promise.all(keys.map((_, i) => post(second.baseUrl, i)));
      for (const [i, answer] of after.entries()) {
        expect(answer.status, `retry ${i}`).toBe(201);
        const id = (JSON.parse(answer.text) as { id: string }).id;
        const earlier = committed.get(`keyed ${i}`);
        // Committed before the kill: the retry is the stored answer, whether or not the client saw it.
        expect(answer.replayed, `retry ${i}`).toBe(earlier !== undefined);
        if (earlier !== undefined) expect(id).toBe(earlier);
        if (before[i]!.status === 201) expect(answer.text).toBe(before[i]!.text);
      }

      const { rows } = await ctx.db.pool.query<{ content: string; activities: number }>(
        `SELECT s.content, (SELECT count(*)::int FROM activity a WHERE a.entity_id = s.id) AS activities
         FROM suggestions s WHERE s.business_id = $1`,
        [t.business.id],
      );
      expect(rows).toHaveLength(BURST);
      expect(new Set(rows.map((row) => row.content)).size).toBe(BURST);
      expect(rows.every((row) => row.activities === 1)).toBe(true);
    });
  },
);
