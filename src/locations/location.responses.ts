import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';
import { LOCATION_NAME_MAX } from './location.schemas.js';

/** What toLocationResponse returns, field by field. */
export const locationSchema = z
  .object({
    id: uuid,
    name: z.string().max(LOCATION_NAME_MAX).meta({ description: 'Unique within the business, ignoring case' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'Location',
    description: 'A place of the business: suggestions and QR codes may name one',
    examples: [
      { id: EXAMPLE.locationId, name: 'Terrace', created_at: EXAMPLE.createdAt, updated_at: EXAMPLE.createdAt },
    ],
  });
export type Location = z.infer<typeof locationSchema>;

export const locationOffsetPageSchema = offsetEnvelopeSchema(locationSchema, 'LocationOffsetPage');
