import { z } from 'zod';

export const SUGGESTION_STATUSES = ['pending', 'reviewing', 'in_progress', 'completed', 'rejected'] as const;
export const ISSUE_STATUSES = ['open', 'assigned', 'in_progress', 'resolved', 'closed'] as const;
export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export const VISIBILITIES = ['internal', 'public'] as const;
export const PLANS = ['free', 'starter', 'business', 'enterprise'] as const;
export const ROLES = ['owner', 'admin', 'member'] as const;
export const SCOPES = ['read', 'write'] as const;

export const suggestionStatus = z.enum(SUGGESTION_STATUSES);
export const issueStatus = z.enum(ISSUE_STATUSES);
export const priority = z.enum(PRIORITIES);
export const sentiment = z.enum(SENTIMENTS);
export const visibility = z.enum(VISIBILITIES);

export type SuggestionStatus = z.infer<typeof suggestionStatus>;
export type IssueStatus = z.infer<typeof issueStatus>;
export type Priority = z.infer<typeof priority>;
export type Sentiment = z.infer<typeof sentiment>;
export type Visibility = z.infer<typeof visibility>;
export type Plan = (typeof PLANS)[number];
export type Role = (typeof ROLES)[number];
export type Scope = (typeof SCOPES)[number];

export const uuid = z.uuid();

/** A whole number in a query string: digits only, so `1e2`, ` 5` or `5.0` are rejected, not coerced. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

/** A date or a date-time with a zone, as a Date; a date alone stands for `timeOfDay` UTC on that day. */
const instantWithDateAt = (timeOfDay: string) =>
  z
    .string()
    .refine((value) => isoDate.safeParse(value).success || isoDateTime.safeParse(value).success, {
      message: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
    })
    .transform((value) => new Date(value.length === 10 ? `${value}T${timeOfDay}Z` : value))
    .refine((date) => !Number.isNaN(date.getTime()), { message: 'is not a valid date' })
    .meta({
      description: 'An ISO 8601 date (YYYY-MM-DD) or date-time with `Z` or an offset',
      examples: ['2026-01-31', '2026-01-31T09:30:00Z'],
    });

/**
 * An ISO 8601 instant: a date (`2026-01-31`, midnight UTC) or a date-time with `Z` or an offset.
 * Returned as a Date.
 */
export const isoInstant = instantWithDateAt('00:00:00.000');

/**
 * As isoInstant, but a date alone means the end of that day (UTC), for inclusive upper bounds.
 * Timestamps are stored at millisecond precision, so the day's last millisecond is exactly its end.
 */
export const isoInstantEndOfDay = instantWithDateAt('23:59:59.999');

export const sortOrder = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof sortOrder>;

/** Page-based pagination of the versioned family (spec 4.1). */
export const MAX_PAGE = 100_000;
export const pageParams = {
  page: queryInt(1, MAX_PAGE).default(1),
  limit: queryInt(1, 100).default(50),
  order: sortOrder.default('desc'),
};

/** Offset-based pagination of the business-scoped family (spec 4.5); `page` is not accepted there. */
export const MAX_OFFSET = 10_000_000;
export const offsetParams = {
  limit: queryInt(1, 100).default(50),
  offset: queryInt(0, MAX_OFFSET).default(0),
  order: sortOrder.default('desc'),
};

/**
 * Trimmed text that must not be empty once trimmed; length counted in characters, not UTF-16 units.
 * The bounds are checked by the refinements; the metadata shows them in the OpenAPI document.
 */
/** PostgreSQL text cannot hold U+0000: refused here as a 400 rather than failing in the database. */
const NO_NUL = [
  (value: string) => !value.includes('\u0000'),
  { message: 'must not contain the NUL character' },
] as const;

export const text = (max: number) =>
  z
    .string()
    .trim()
    .refine(...NO_NUL)
    .refine((value) => value.length > 0, { message: 'must not be empty' })
    .refine((value) => [...value].length <= max, { message: `must be at most ${max} characters` })
    .meta({ minLength: 1, maxLength: max, description: `Trimmed; 1 to ${max} characters` });

export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .meta({ maxLength: max, description: `Trimmed; at most ${max} characters, empty means none` })
    .refine(...NO_NUL)
    .refine((value) => [...value].length <= max, { message: `must be at most ${max} characters` })
    .transform((value) => (value === '' ? undefined : value))
    .optional();

export const email = z.string().trim().pipe(z.email().max(254)).meta({ format: 'email', maxLength: 254 });
