import { z } from 'zod';
import { offsetParams, oneLine } from '../shared/schemas.js';
import { LOCATION_NAME_MAX } from './location.columns.js';
import { LOCATION_SORTS, type LocationSort } from './location.repository.js';

export const listLocationsQuery = z.strictObject({
  ...offsetParams,
  sort: z.enum(Object.keys(LOCATION_SORTS) as [LocationSort, ...LocationSort[]]).default('created_at'),
});

export const locationBody = z
  .strictObject({ name: oneLine(LOCATION_NAME_MAX) })
  .meta({ examples: [{ name: 'Terrace' }] });
export type LocationBody = z.output<typeof locationBody>;

export const deleteLocationQuery = z.strictObject({
  force: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({
      description:
        '`true` detaches the QR codes, suggestions and issues that name the location (their `location_id` ' +
        'becomes null) and deletes it; otherwise a location still in use is a 409',
    }),
});
