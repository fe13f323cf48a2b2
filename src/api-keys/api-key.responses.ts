import { z } from 'zod';
import { offsetEnvelopeSchema, timestamp } from '../http/responses.js';
import { SCOPES, uuid } from '../shared/schemas.js';
import { KEY_PREFIX } from './key-format.js';

/** Every field a client may see of a key (toApiKeyResponse); never the digest. */
export const apiKeySchema = z
  .object({
    id: uuid,
    name: z.string(),
    prefix: z.string().startsWith(KEY_PREFIX).meta({ description: 'The start of the key, to recognise it by' }),
    scope: z.enum(SCOPES),
    created_by: uuid.meta({ description: 'The user the key acts for' }),
    created_at: timestamp,
    last_used_at: timestamp.nullable().meta({ description: 'To the minute; null when never used' }),
    revoked_at: timestamp.nullable(),
  })
  .meta({ id: 'ApiKey', description: 'An API key, without its secret' });
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The creation response: the only time the full key is ever shown. */
export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().startsWith(KEY_PREFIX).meta({ description: 'The full key: shown this once only' }) })
  .meta({ id: 'CreatedApiKey', description: 'A new API key, with the full key shown this once' });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyOffsetPageSchema = offsetEnvelopeSchema(apiKeySchema, 'ApiKeyOffsetPage');
