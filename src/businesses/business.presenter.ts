import { presenterOf } from '../db/columns.js';
import { BUSINESS_COLUMN_MAP, type BusinessRow } from './business.columns.js';
import type { Business } from './business.responses.js';

const read = presenterOf(BUSINESS_COLUMN_MAP, ['read']);

/** Exactly the columns of BUSINESS_COLUMN_MAP, in its order. */
export const toBusinessResponse = (business: BusinessRow): Business => read(business);
