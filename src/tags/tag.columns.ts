import { z } from 'zod';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

/** The longest name, in characters: what a body may send and what a read may show. */
export const TAG_NAME_MAX = 50;

/** At most this many tags on one item, and names in one body or filter. */
export const TAGS_PER_ITEM_MAX = 20;

/** A colour as the dashboard's colour input gives it: `#` and six lower-case hex digits. */
export const tagColor = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour as #rrggbb')
  .transform((value) => value.toLowerCase())
  .meta({ description: 'A colour as `#rrggbb` (hex digits, stored lower-case)', examples: ['#2f855a'] });

export interface TagRow {
  id: string;
  name: string;
  color: string;
  public: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Every column of a tag, as its read shows them: the select list, presenter and schema. */
export const TAG_COLUMN_MAP = {
  id: { shownIn: 'read', schema: uuid },
  name: {
    shownIn: 'read',
    schema: z
      .string()
      .max(TAG_NAME_MAX)
      .meta({ description: 'Unique within the business, ignoring case; items name their tags by it' }),
  },
  color: { shownIn: 'read', schema: z.string().meta({ description: '`#rrggbb`' }) },
  public: {
    shownIn: 'read',
    schema: z.boolean().meta({ description: 'Shown on the suggestions of the public page' }),
  },
  created_at: { shownIn: 'read', schema: timestamp, instant: true },
  updated_at: { shownIn: 'read', schema: timestamp, instant: true },
} satisfies ColumnMap<TagRow, 'read'>;
