import { presenterOf } from '../db/columns.js';
import { TAG_COLUMN_MAP, type TagRow } from './tag.columns.js';
import type { Tag } from './tag.responses.js';

const read = presenterOf(TAG_COLUMN_MAP, ['read']);

/** Exactly the columns of TAG_COLUMN_MAP, in its order. */
export const toTagResponse = (tag: TagRow): Tag => read(tag);
