import { z } from 'zod';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';

/** The longest name, in characters: what a body may send and what a read may show. */
export const LOCATION_NAME_MAX = 200;

export interface LocationRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

/** Every column of a location, as its read shows them: the select list, presenter and schema. */
export const LOCATION_COLUMN_MAP = {
  id: { shownIn: 'read', schema: uuid },
  name: {
    shownIn: 'read',
    schema: z.string().max(LOCATION_NAME_MAX).meta({ description: 'Unique within the business, ignoring case' }),
  },
  created_at: { shownIn: 'read', schema: timestamp, instant: true },
  updated_at: { shownIn: 'read', schema: timestamp, instant: true },
} satisfies ColumnMap<LocationRow, 'read'>;
