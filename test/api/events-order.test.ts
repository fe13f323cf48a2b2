import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publishEvent } from '../../src/outbox/outbox.service.js';
import { qrCodeSchema } from '../../src/qr-codes/qr-code.responses.js';
import { exampleOf } from '../../src/shared/responses.js';
import { withTransaction, type Queryable } from '../../src/db/database.js';
import { useTestApp } from '../support/app.js';
import { testMode } from '../support/database.js';
import { buildTeam } from '../support/factories.js';

/**
 * The feed's position is the writing transaction's id (xid8) and an order within it. Transaction ids
 * gain a digit now and then (999 → 1000): the feed must order and compare them as numbers across
 * that boundary, which no test crossed while the feed sorted them as text.
 */
const ctx = useTestApp();

interface Event {
  id: string;
  type: string;
  data: { object: { id: string; content?: string; title?: string; label?: string } };
}
interface Feed {
  data: Event[];
  next_cursor: string | null;
  has_more: boolean;
}

/**
 * On PostgreSQL, burning ids costs about 3 s a million, and every run leaves the server's counter
 * past the boundary it crossed, so the next boundary is ten times further: past this budget the test
 * that burns says so and stops (the other two still cross every boundary below the counter).
 */
const BURN_BUDGET = 10_000_000;
/**
 * Ids burnt per statement: a statement's transaction holds back every feed on the server (an event is
 * listed once older transactions end), so each stays short (about 0.3 s) for other files' feeds.
 */
const BURN_CHUNK = 100_000;

const currentXid = async (db: Queryable) =>
  BigInt((await db.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid);

/** The next power of ten above the server's transaction counter. */
async function nextBoundary(db: Queryable): Promise<{ now: bigint; boundary: bigint }> {
  const now = await currentXid(db);
  let boundary = 10n;
  while (boundary <= now) boundary *= 10n;
  return { now, boundary };
}

/**
 * Consumes transaction ids until the counter reaches `target`: each subtransaction that writes takes
 * an id of its own, so one statement burns many.
 */
async function burnUntil(db: Queryable, target: bigint): Promise<void> {
  for (let left = target - (await currentXid(db)); left > 0n; left = target - (await currentXid(db))) {
    const count = left > BigInt(BURN_CHUNK) ? BURN_CHUNK : Number(left);
    await db.query('CREATE TEMP TABLE IF NOT EXISTS xid_burn (n int)');
    await db.query(/* sql */ `
      DO $$
      BEGIN
        FOR i IN 1..${count} LOOP
          BEGIN
            INSERT INTO xid_burn VALUES (i);
          EXCEPTION WHEN others THEN NULL;
          END;
        END LOOP;
      END $$`);
  }
}

async function readFeed(path: string, headers: Record<string, string>, query: Record<string, string | number>) {
  const res = await ctx.request().get(path).set(headers).query(query);
  expect(res.status, res.text).toBe(200);
  return res.body as Feed;
}

/** A poller as an integrator writes it: keeps next_cursor, asks again with a small limit. */
class Poller {
  readonly seen: Event[] = [];
  #after: string | null = null;

  constructor(
    private readonly path: string,
    private readonly headers: Record<string, string>,
    private readonly limit: number,
    readonly type?: string,
  ) {}

  /** One request; answers has_more. */
  async poll(): Promise<boolean> {
    const query: Record<string, string | number> = { limit: this.limit };
    if (this.#after) query.after = this.#after;
    if (this.type) query.type = this.type;
    const feed = await readFeed(this.path, this.headers, query);
    this.seen.push(...feed.data);
    this.#after = feed.next_cursor;
    return feed.has_more;
  }

  /**
   * Reads until `expected` events came and the feed says there is no more. On PostgreSQL an event is
   * listed once every older transaction on the server has ended (other files' included): bounded retries.
   */
  async drain(expected: number): Promise<Event[]> {
    for (let i = 0; i < 500; i++) {
      const more = await this.poll();
      if (!more && this.seen.length >= expected) break;
      if (!more) await sleep(10);
    }
    return this.seen;
  }
}

/** Gives the events labelled `labels` the transaction id `xid`, as though that transaction wrote them. */
async function moveEvents(db: Queryable, businessId: string, labels: string[], xid: bigint): Promise<void> {
  const { rowCount } = await db.query(
    /* sql */ `
    UPDATE events
    SET xid = $3::xid8
    WHERE business_id = $1
      AND data->'object'->>'label' = ANY ($2::text[])`,
    [businessId, labels, String(xid)],
  );
  expect(rowCount).toBe(labels.length);
}

/** What identifies an event here: a QR code event's label (see qrEvent), or the created item's id. */
const ids = (events: Event[]) => events.map((e) => e.data.object.label ?? e.data.object.id);
/** Shaped like a QR code, as the document promises for qr_code.* events; told apart by label. */
const qrEvent = (label: string) => ({ object: { ...(exampleOf(qrCodeSchema) as object), label } });

describe('The event feed across a transaction id that gains a digit', () => {
  it('When events sit on both sides of every power of ten, then each family lists each once, in numeric order', async () => {
    const t = await buildTeam(ctx.db);
    const pool = ctx.db.pool;
    // Real events, then moved to positions on either side of each power of ten below the server's
    // counter (so the feed already regards them as final): 8, 9, 10, 11, 98, 99, 100, 101, ...
    const { now } = await nextBoundary(pool);
    const positions: bigint[] = [];
    for (let power = 10n; power < now; power *= 10n) positions.push(power - 2n, power - 1n, power, power + 1n);
    const labels: string[] = [];
    for (const [index, xid] of positions.entries()) {
      // Two events per position: the order within a transaction (seq) must hold too.
      for (const half of ['a', 'b']) {
        const label = `${String(xid)}${half}`;
        labels.push(label);
        await withTransaction(pool, async (tx) => {
          // An update says what changed, as the document's qr_code.updated requires.
          const changes = { active: { from: true, to: false } };
          if (index % 2) await publishEvent(tx, t.business.id, 'qr_code.updated', { ...qrEvent(label), changes });
          else await publishEvent(tx, t.business.id, 'qr_code.created', qrEvent(label));
          await moveEvents(tx, t.business.id, [label], xid);
        });
      }
    }
    expect(positions.length).toBeGreaterThanOrEqual(8);

    for (const [path, headers] of [
      ['/api/v1/events', { 'X-API-Key': t.read }],
      [`/businesses/${t.business.id}/events`, { Authorization: `Bearer ${t.ownerToken}` }],
    ] as const) {
      for (const limit of [1, 3, 100]) {
        const all = await new Poller(path, headers, limit).drain(labels.length);
        expect(ids(all)).toEqual(labels);
      }
      const created = await new Poller(path, headers, 2, 'qr_code.created').drain(labels.length / 2);
      expect(ids(created)).toEqual(labels.filter((_, i) => Math.floor(i / 2) % 2 === 0));
    }
  });

  it('When writes cross the next power of ten while pollers read, then every poller gets every event once, in order', async (test) => {
    const t = await buildTeam(ctx.db);
    const pool = ctx.db.pool;
    const { now, boundary } = await nextBoundary(pool);
    if (boundary - now > BURN_BUDGET) {
      // Only on a PostgreSQL server that earlier runs already took far along; the test above still
      // crosses boundaries there.
      test.skip(`the next power of ten (${boundary}) is ${boundary - now} transaction ids away: too far to burn`);
    }
    const key = { 'X-API-Key': t.write };
    const readKey = { 'X-API-Key': t.read };
    const pollers = [
      new Poller('/api/v1/events', readKey, 5),
      new Poller('/api/v1/events', readKey, 1),
      new Poller('/api/v1/events', readKey, 2, 'suggestion.created'),
      new Poller(`/businesses/${t.business.id}/events`, { Authorization: `Bearer ${t.ownerToken}` }, 3),
    ];
    // Suggestions, and a comment on the last one after every two: two event types to filter.
    const created: { id: string; kind: 'comment' | 'suggestion' }[] = [];
    const write = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const last = created.findLast((c) => c.kind === 'suggestion');
        const comment = i % 3 === 2 && last !== undefined;
        const res = comment
          ? await ctx
              .request()
              .post(`/api/v1/suggestions/${last.id}/comments`)
              .set(key)
              .send({ content: `Note ${i}` })
          : await ctx
              .request()
              .post('/api/v1/suggestions')
              .set(key)
              .send({ content: `Wish ${i}` });
        expect(res.status, res.text).toBe(201);
        created.push({ id: (res.body as { id: string }).id, kind: comment ? 'comment' : 'suggestion' });
        // Pollers that keep up: a read after every few writes.
        if (i % 4 === 0) for (const poller of pollers) await poller.poll();
      }
    };

    // Events before the boundary, then ids burnt to just below it, then events past it.
    await write(24);
    await burnUntil(pool, boundary - 10n);
    await write(36);
    const xids = await pool.query<{ xid: string }>('SELECT xid::text AS xid FROM events WHERE business_id = $1', [
      t.business.id,
    ]);
    const numbers = xids.rows.map((row) => BigInt(row.xid));
    expect(numbers.some((xid) => xid < boundary) && numbers.some((xid) => xid >= boundary)).toBe(true);

    const all = created.map((c) => c.id);
    const suggestions = created.filter((c) => c.kind === 'suggestion').map((c) => c.id);
    for (const poller of pollers) {
      const expected = poller.type ? suggestions : all;
      expect(ids(await poller.drain(expected.length))).toEqual(expected);
    }
    // And a newcomer reading from the start afterwards.
    expect(ids(await new Poller('/api/v1/events', readKey, 7).drain(all.length))).toEqual(all);
  }, 90_000); // up to 10 million ids burnt on PostgreSQL (30 s); seconds on the embedded database

  it('When writers and pollers interleave at random across boundaries, then each poller sees each event once, in order', async () => {
    const pool = ctx.db.pool;
    const { now } = await nextBoundary(pool);
    const below = (n: bigint) => n < now;
    // Transaction ids on and around each power of ten below the counter, and anywhere below it.
    const near: bigint[] = [];
    for (let power = 10n; power < now; power *= 10n) near.push(power - 1n, power, power + 1n);
    const xid = fc.oneof(fc.constantFrom(...near.filter(below)), fc.bigInt({ min: 1n, max: now - 1n }));
    const action = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('poll' as const), poller: fc.integer({ min: 0, max: 1 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 1, maxLength: 12 }),
        fc.uniqueArray(xid, { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        async (actions, xids, limit) => {
          const t = await buildTeam(ctx.db);
          const headers = { 'X-API-Key': t.read };
          const pollers = [new Poller('/api/v1/events', headers, limit), new Poller('/api/v1/events', headers, 1)];
          // Transactions take increasing ids, as the server hands them out.
          const ordered = xids.sort((a, b) => (a < b ? -1 : 1));
          const written: string[] = [];
          for (const step of actions) {
            if (step.kind === 'poll') {
              await pollers[step.poller]!.poll();
              continue;
            }
            // One transaction writes `count` events: their order within it is seq.
            const labels = Array.from({ length: step.count }, (_, i) => `${written.length + i}`);
            await withTransaction(pool, async (tx) => {
              for (const label of labels) await publishEvent(tx, t.business.id, 'qr_code.created', qrEvent(label));
              await moveEvents(tx, t.business.id, labels, ordered.shift()!);
            });
            written.push(...labels);
          }
          for (const poller of pollers) expect(ids(await poller.drain(written.length))).toEqual(written);
        },
      ),
      { numRuns: testMode() === 'postgres' ? 10 : 25 },
    );
  });
});
