import { z } from 'zod';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

const ENTITY_TYPES = ['suggestion', 'issue'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface CommentRow {
  id: string;
  entity_type: EntityType;
  entity_id: string;
  content: string;
  author_id: string;
  created_at: Date;
  /** The suggestion it was written on, when a merge moved it to the one it is shown under. */
  merged_from: string | null;
}

/** Every column of a comment, as its read shows them (spec 2.3): the select list, presenter and schema. */
export const COMMENT_COLUMN_MAP = {
  id: { shownIn: 'read', schema: uuid },
  entity_type: { shownIn: 'read', schema: z.enum(ENTITY_TYPES) },
  entity_id: { shownIn: 'read', schema: uuid.meta({ description: 'The commented suggestion or issue' }) },
  content: {
    shownIn: 'read',
    schema: z.string().meta({
      description: 'Through an API key, prefixed `[via API: <key name>] `; otherwise the text as submitted (trimmed)',
    }),
  },
  author_id: {
    shownIn: 'read',
    schema: uuid.meta({ description: 'The user: through an API key, the user who created the key' }),
  },
  created_at: { shownIn: 'read', schema: timestamp, instant: true },
  merged_from: {
    shownIn: 'read',
    schema: uuid.nullable().meta({
      description:
        'The suggestion it was written on, merged into this one (an unmerge takes it back); null when written here',
    }),
  },
} satisfies ColumnMap<CommentRow, 'read'>;
