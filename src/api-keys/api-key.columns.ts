import { z } from 'zod';
import { KEY_PREFIX } from '../auth/key-format.js';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import { SCOPES, uuid, type Scope } from '../shared/schemas.js';

export interface ApiKeyRow {
  id: string;
  business_id: string;
  name: string;
  prefix: string;
  scope: Scope;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Every column of a key a client may see, as its read shows them; never the digest, no column here. */
export const API_KEY_COLUMN_MAP = {
  id: { shownIn: 'read', schema: uuid },
  business_id: { shownIn: null },
  name: { shownIn: 'read', schema: z.string() },
  prefix: {
    shownIn: 'read',
    schema: z.string().startsWith(KEY_PREFIX).meta({ description: 'The start of the key, to recognise it by' }),
  },
  scope: { shownIn: 'read', schema: z.enum(SCOPES) },
  created_by: { shownIn: 'read', schema: uuid.meta({ description: 'The user the key acts for' }) },
  created_at: { shownIn: 'read', schema: timestamp, instant: true },
  last_used_at: {
    shownIn: 'read',
    // One pattern, not the date-time's and a second one: validators that fold several patterns into
    // one (Prism) got it wrong and flagged every key that had been used.
    schema: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/)
      .meta({ format: 'date-time' })
      .nullable()
      .meta({
        description:
          'When the key was last used, to the minute (recorded at most once a minute, so seconds and milliseconds ' +
          'are always zero); null when never used',
        examples: ['2026-01-31T09:30:00.000Z'],
      }),
    instant: true,
  },
  revoked_at: { shownIn: 'read', schema: timestamp.nullable(), instant: true },
} satisfies ColumnMap<ApiKeyRow, 'read'>;
