import { setTimeout as sleep } from 'node:timers/promises';
import type supertest from 'supertest';

export interface FeedEvent {
  id: string;
  type: string;
  created_at: string;
  data: { object: unknown; changes?: unknown };
}

/**
 * The events `GET /api/v1/events` lists once at least `count` of them match `keep`. On PostgreSQL the
 * feed lists an event only once every older transaction on the server has ended (other test files'
 * included): read again, a bounded number of times, until it does.
 */
export async function feedEvents(
  request: () => supertest.Agent,
  readKey: string,
  count: number,
  options: { query?: Record<string, string>; keep?: (event: FeedEvent) => boolean } = {},
): Promise<FeedEvent[]> {
  const { query = {}, keep = () => true } = options;
  let events: FeedEvent[] = [];
  for (let i = 0; i < 100; i++) {
    const feed = await request().get('/api/v1/events').set('X-API-Key', readKey).query(query);
    events = (feed.body as { data: FeedEvent[] }).data.filter(keep);
    if (events.length >= count) break;
    await sleep(20);
  }
  return events;
}
