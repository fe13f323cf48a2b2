import { presenterOf } from '../db/columns.js';
import { API_KEY_COLUMN_MAP, type ApiKeyRow } from './api-key.columns.js';
import type { ApiKey } from './api-key.responses.js';

/** Written at most once a minute, so it is shown to the minute: a finer time would claim more than it knows. */
const toTheMinute = (date: Date) => new Date(Math.floor(date.getTime() / 60_000) * 60_000).toISOString();

const read = presenterOf(API_KEY_COLUMN_MAP, ['read']);

/** Every field a client may see of a key (API_KEY_COLUMN_MAP); never the digest. */
export function toApiKeyResponse(key: ApiKeyRow): ApiKey {
  return { ...read(key), last_used_at: key.last_used_at ? toTheMinute(key.last_used_at) : null };
}
