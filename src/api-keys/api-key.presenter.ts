import type { ApiKeyRow } from './api-key.repository.js';
import type { ApiKey, CreatedApiKey } from './api-key.responses.js';

/** Written at most once a minute, so it is shown to the minute: a finer time would claim more than it knows. */
const toTheMinute = (date: Date) => new Date(Math.floor(date.getTime() / 60_000) * 60_000).toISOString();

/** Every field a client may see of a key; never the digest. */
export function toApiKeyResponse(key: ApiKeyRow): ApiKey {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scope: key.scope,
    created_by: key.created_by,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at ? toTheMinute(key.last_used_at) : null,
    revoked_at: key.revoked_at?.toISOString() ?? null,
  };
}

/** The creation response: the only time the full key is ever shown. */
export function toCreatedApiKeyResponse(key: ApiKeyRow, fullKey: string): CreatedApiKey {
  return { ...toApiKeyResponse(key), key: fullKey };
}
