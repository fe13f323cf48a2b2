import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema } from '../shared/responses.js';
import { LOCATION_COLUMN_MAP } from './location.columns.js';

/** What toLocationResponse returns. */
export const locationSchema = z.object(fieldsOf(LOCATION_COLUMN_MAP, ['read'])).meta({
  id: 'Location',
  description: 'A place of the business: suggestions and QR codes may name one',
  examples: [{ id: EXAMPLE.locationId, name: 'Terrace', created_at: EXAMPLE.createdAt, updated_at: EXAMPLE.createdAt }],
});
export type Location = z.infer<typeof locationSchema>;

export const locationOffsetPageSchema = offsetEnvelopeSchema(locationSchema, 'LocationOffsetPage');
