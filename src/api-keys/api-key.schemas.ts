import { z } from 'zod';
import { offsetParams, SCOPES, text } from '../shared/schemas.js';

export const createApiKeyBody = z
  .strictObject({
    name: text(100),
    scope: z.enum(SCOPES).default('read'),
  })
  .meta({ examples: [{ name: 'Zapier sync', scope: 'write' }] });

export const listApiKeysQuery = z.strictObject(offsetParams);
