import { presenterOf } from '../db/columns.js';
import { CHANGELOG_COLUMN_MAP, type ChangelogEntryRow } from './changelog.columns.js';
import type { ChangelogEntry } from './changelog.responses.js';

const read = presenterOf(CHANGELOG_COLUMN_MAP, ['read']);

/** Exactly the columns of CHANGELOG_COLUMN_MAP, in its order. */
export const toChangelogEntryResponse = (entry: ChangelogEntryRow): ChangelogEntry => read(entry);
