import { describe, expect, it, vi } from 'vitest';
import { runInTransaction } from '../db/database.js';
import { openTestDatabase } from '../../test/support/database.js';
import { deliveryBus, wakeWorkers } from './event.bus.js';

describe('waking the webhook workers', () => {
  it('When an event is published inside a request transaction, then the workers wake only after it commits', async () => {
    const db = await openTestDatabase();
    const woke = vi.fn();
    deliveryBus.on('wake', woke);
    try {
      const client = await db.pool.connect();
      await client.query('BEGIN');
      const { afterCommit } = await runInTransaction(db.pool, client, () => {
        wakeWorkers();
        expect(woke).not.toHaveBeenCalled();
        return Promise.resolve();
      });
      await client.query('COMMIT');
      client.release();
      expect(woke).not.toHaveBeenCalled();
      for (const callback of afterCommit) callback();
      expect(woke).toHaveBeenCalledTimes(1);

      wakeWorkers(); // outside any request transaction: at once
      expect(woke).toHaveBeenCalledTimes(2);
    } finally {
      deliveryBus.off('wake', woke);
      await db.close();
    }
  });
});
