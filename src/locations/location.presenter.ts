import { presenterOf } from '../db/columns.js';
import { LOCATION_COLUMN_MAP, type LocationRow } from './location.columns.js';
import type { Location } from './location.responses.js';

const read = presenterOf(LOCATION_COLUMN_MAP, ['read']);

/** Exactly the columns of LOCATION_COLUMN_MAP, in its order. */
export const toLocationResponse = (location: LocationRow): Location => read(location);
