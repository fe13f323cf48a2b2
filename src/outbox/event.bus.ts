import { EventEmitter } from 'node:events';
import { afterCommit } from '../db/database.js';

/**
 * Wakes this process's webhook workers when an event with deliveries was written. PostgreSQL also
 * tells every instance (NOTIFY at commit); the embedded database, a single connection used by one
 * process, has only this: a worker woken while the writing transaction is still open queues its
 * claim behind that transaction's COMMIT on the same connection, so it finds the rows.
 */
export const deliveryBus = new EventEmitter().setMaxListeners(0);

export const DELIVERY_CHANNEL = 'webhook_deliveries';

/**
 * Inside a request transaction (an Idempotency-Key's), only once it has committed: woken within it, a
 * worker would run in that request's context and its claim would join the uncommitted transaction,
 * sending a webhook for a write that might still roll back.
 */
export function wakeWorkers(): void {
  afterCommit(() => deliveryBus.emit('wake'));
}
