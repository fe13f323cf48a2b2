import { z } from 'zod';
import { offsetParams, oneLine, SCOPES } from '../shared/schemas.js';

export const createApiKeyBody = z
  .strictObject({
    name: oneLine(100),
    scope: z.enum(SCOPES).default('read'),
  })
  .meta({ examples: [{ name: 'Zapier sync', scope: 'write' }] });

export const listApiKeysQuery = z.strictObject(offsetParams);
