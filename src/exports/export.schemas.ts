import { z } from 'zod';
import { issueFilters } from '../issues/issue.schemas.js';
import { isoInstantEndOfDay } from '../shared/schemas.js';
import { suggestionFilters } from '../suggestions/suggestion.schemas.js';

export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Spec 8: at most this many records per export; the rest is announced, not sent. */
export const EXPORT_LIMIT = 10_000;

const exportParams = {
  /** Absent: the Accept header decides (export.routes.ts). */
  format: z.enum(EXPORT_FORMATS).optional(),
  until: isoInstantEndOfDay.optional(),
  /** CSV only: a UTF-8 byte-order mark first, for spreadsheets that otherwise guess another encoding. */
  bom: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .default(false),
};

const untilNotBeforeSince = {
  check: (query: { since?: Date; until?: Date }) => !query.since || !query.until || query.since <= query.until,
  issue: { message: 'must not be before since', path: ['until'], params: { code: 'before_since' } },
};

/**
 * The export's `since` is "created at or after" and `until` "at or before" (a date alone: the end of
 * that day, UTC), unlike the list's strictly-after `since`: renamed here to the filter fields that say so.
 */
const toExportRequest = <Q extends { format?: ExportFormat; bom: boolean; since?: Date; until?: Date }>({
  format,
  bom,
  since,
  until,
  ...filter
}: Q) => ({ format, bom, filter: { ...filter, createdFrom: since, createdUntil: until } });

/** Spec 4.4 for suggestions: the list's filters (no paging, no search) plus format and until. */
export const exportSuggestionsQuery = z
  .strictObject({ ...suggestionFilters, ...exportParams })
  .refine(untilNotBeforeSince.check, untilNotBeforeSince.issue)
  .transform(toExportRequest);

/** Spec 4.4 for issues: as suggestions without sentiment (an unknown parameter here, so a 400). */
export const exportIssuesQuery = z
  .strictObject({
    status: issueFilters.status,
    priority: issueFilters.priority,
    lang: issueFilters.lang,
    since: issueFilters.since,
    ...exportParams,
  })
  .refine(untilNotBeforeSince.check, untilNotBeforeSince.issue)
  .transform(toExportRequest);
