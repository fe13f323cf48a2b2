import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema } from '../shared/responses.js';
import { KEY_PREFIX } from '../auth/key-format.js';
import { API_KEY_COLUMN_MAP } from './api-key.columns.js';

/** Every field a client may see of a key (toApiKeyResponse); never the digest. */
export const apiKeySchema = z.object(fieldsOf(API_KEY_COLUMN_MAP, ['read'])).meta({
  id: 'ApiKey',
  description: 'An API key, without its secret',
  examples: [
    {
      id: EXAMPLE.apiKeyId,
      name: 'Zapier sync',
      prefix: 'fbk_7Gq2XmRk',
      scope: 'write',
      created_by: EXAMPLE.ownerId,
      created_at: EXAMPLE.createdAt,
      last_used_at: '2026-02-02T14:05:00.000Z',
      revoked_at: null,
    },
  ],
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The creation response: the only time the full key is ever shown. */
export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().startsWith(KEY_PREFIX).meta({ description: 'The full key: shown this once only' }) })
  .meta({
    id: 'CreatedApiKey',
    description: 'A new API key, with the full key shown this once',
    examples: [
      {
        id: EXAMPLE.apiKeyId,
        name: 'Zapier sync',
        prefix: 'fbk_7Gq2XmRk',
        scope: 'write',
        created_by: EXAMPLE.ownerId,
        created_at: EXAMPLE.createdAt,
        last_used_at: null,
        revoked_at: null,
        key: 'fbk_7Gq2XmRkP4vN8sT1wY6zB3cD5fH9jL0a1HDr1I',
      },
    ],
  });

export const apiKeyOffsetPageSchema = offsetEnvelopeSchema(apiKeySchema, 'ApiKeyOffsetPage');
