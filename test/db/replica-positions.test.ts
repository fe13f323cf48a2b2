import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryPositions, RedisPositions, type PositionStore } from '../../src/db/replica-positions.js';
import { parseLsn } from '../../src/db/replicas.js';
import { SharedRedis } from '../../src/http/rate-limit-store.js';
import { capturingLogger } from '../support/app.js';

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl
  ? new SharedRedis({ url: redisUrl, prefix: `fbk-test:rr:${randomUUID()}:` }, capturingLogger().logger)
  : undefined;
afterAll(() => redis?.close());

/** Redis answers once connected: until then the store knows nothing, as when it is down. */
async function connected(store: PositionStore): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    await store.record('probe', 0, 1n);
    if ((await store.required('probe', 0)) === 1n) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('Redis never answered');
}

const stores: [string, () => Promise<PositionStore>][] = [
  ['in memory', () => Promise.resolve(new MemoryPositions())],
  ...(redis
    ? [
        [
          'in Redis',
          async () => {
            const store = new RedisPositions(redis);
            await connected(store);
            return store;
          },
        ] as [string, () => Promise<PositionStore>],
      ]
    : []),
];

describe.each(stores)('Business positions for read replicas, %s', (_name, make) => {
  it('When a position is recorded at a change number, then it is known at that number only', async () => {
    const store = await make();
    const business = randomUUID();
    expect(await store.required(business, 3)).toBeUndefined();
    await store.record(business, 3, 0x1_0000_0010n);
    expect(await store.required(business, 3)).toBe(0x1_0000_0010n);
    expect(await store.required(business, 4)).toBeUndefined();
  });

  it('When a write is recorded, then the position only rises, and the change number is kept', async () => {
    const store = await make();
    const business = randomUUID();
    await store.record(business, 7, 500n);
    await store.record(business, null, 900n);
    expect(await store.required(business, 7)).toBe(900n);
    await store.record(business, null, 600n);
    expect(await store.required(business, 7)).toBe(900n);
    await store.record(business, 8, 700n);
    expect(await store.required(business, 8)).toBe(900n);
  });
});

describe('MemoryPositions', () => {
  it('When more businesses than its capacity are recorded, then the oldest is forgotten (its reads go to the primary)', async () => {
    const store = new MemoryPositions(2);
    await store.record('a', 1, 10n);
    await store.record('b', 1, 10n);
    await store.record('c', 1, 10n);
    expect(await store.required('a', 1)).toBeUndefined();
    expect(await store.required('c', 1)).toBe(10n);
  });
});

describe('parseLsn', () => {
  it('When PostgreSQL writes a position as high/low hex, then it is that 64-bit number', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe(0x16_b374_d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });
});
