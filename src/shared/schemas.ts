import { z } from 'zod';
import { hasVisibleText, isOneLine, ONE_LINE_PATTERN, VISIBLE_ONE_LINE_PATTERN, VISIBLE_PATTERN } from './unicode.js';

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
/** Where a suggestion or issue came from: the database's entry_source. */
export type EntrySource = 'api' | 'dashboard' | 'qr_code' | 'public_page' | 'import';

/** RFC 9562: a version digit 1 to 8 and the variant bits `10` (or the nil and max UUIDs); the document says so too. */
export const uuid = z.uuid();

/**
 * A whole number in a query string: digits only, so `1e2`, ` 5` or `5.0` are rejected, not coerced;
 * a number past the bounds, however many digits it has, is "too big" or "too small".
 */
export const queryInt = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

/**
 * A date or a date-time with seconds and a zone (`Z` or `+01:00`), as a Date; a date alone stands for
 * `timeOfDay` UTC on that day. The document shows both forms with their patterns.
 */
const instantWithDateAt = (timeOfDay: string) =>
  z
    .union([isoDate, isoDateTime], {
      error: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with seconds and a time zone',
    })
    .transform((value) => new Date(value.length === 10 ? `${value}T${timeOfDay}Z` : value))
    .refine((date) => !Number.isNaN(date.getTime()), {
      message: 'is not a valid date',
      params: { code: 'invalid_date' },
    })
    .meta({
      description: 'An ISO 8601 date (YYYY-MM-DD) or date-time with seconds and `Z` or an offset (`+01:00`)',
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

/** PostgreSQL text cannot hold U+0000: refused here as a 400 rather than failing in the database. */
const NO_NUL = [
  (value: string) => !value.includes('\u0000'),
  { message: 'must not contain the NUL character', params: { code: 'nul_character' } },
] as const;

/**
 * The bound counts characters (code points, as JSON Schema's maxLength does) of the text as sent,
 * before trimming: exactly what the document's maxLength says. (Text that is not valid Unicode never
 * gets here: parseBody refuses it in every field.)
 */
const atMost = (max: number) =>
  [
    (value: string) => [...value].length <= max,
    { message: `must be at most ${max} characters`, params: { code: 'too_long', max } },
  ] as const;

/** Empty text, to a reader: required. */
const VISIBLE_TEXT = [
  hasVisibleText,
  { message: 'must not be empty (white space and invisible characters do not count)', params: { code: 'required' } },
] as const;

/**
 * Text that must show something: trimmed, and not made only of white space or invisible characters
 * (zero-width spaces and the like, src/shared/unicode.ts), which is empty text.
 */
export const text = (max: number) =>
  z
    .string()
    .refine(...atMost(max))
    .trim()
    .refine(...NO_NUL)
    .refine(...VISIBLE_TEXT)
    .meta({
      minLength: 1,
      maxLength: max,
      pattern: VISIBLE_PATTERN,
      description: `1 to ${max} characters, at least one of them visible; trimmed`,
    });

/** Optional text: empty, or only white space and invisible characters, means none. */
export const optionalText = (max: number) =>
  z
    .string()
    .meta({
      maxLength: max,
      description: `At most ${max} characters; trimmed; empty (or only white space and invisible characters) means none`,
    })
    .refine(...atMost(max))
    .trim()
    .refine(...NO_NUL)
    .transform((value) => (hasVisibleText(value) ? value : undefined))
    .optional();

/**
 * One line, as sent: no line break, tab or other control character, no line or paragraph separator,
 * no bidi embedding, override or isolate (src/shared/unicode.ts). Checked before trimming, so the
 * document's pattern says exactly what is refused.
 */
export const ONE_LINE = [
  isOneLine,
  { message: 'must be one line: no line breaks, control characters or bidi overrides', params: { code: 'one_line' } },
] as const;

/**
 * Stored in Unicode's composed form (NFC), so "Café" typed with é or with e + U+0301 is one name
 * (and one location, whose names are unique). Composing rarely lengthens text (U+0958 decomposes
 * under NFC): the stored text is held to the bound as well.
 */
const nfc = (value: string) => value.normalize('NFC');
const atMostOnceNormalized = (max: number) =>
  [
    (value: string | undefined) => value === undefined || [...value].length <= max,
    { message: `must be at most ${max} characters once normalised (NFC)`, params: { code: 'too_long', max } },
  ] as const;

/**
 * A name, a label, a title: `text` on one line, stored NFC-normalised. Every one-line field of both
 * families (and the admin CLI) uses this, or optionalOneLine.
 */
export const oneLine = (max: number) =>
  z
    .string()
    .refine(...atMost(max))
    .refine(...ONE_LINE)
    .trim()
    .refine(...VISIBLE_TEXT)
    .transform(nfc)
    .refine(...atMostOnceNormalized(max))
    .meta({
      minLength: 1,
      maxLength: max,
      pattern: VISIBLE_ONE_LINE_PATTERN,
      description:
        `1 to ${max} characters on one line (no line breaks, control characters or bidi overrides), ` +
        'at least one of them visible; trimmed; stored NFC-normalised',
    });

/** An optional one-line text (a customer's or a voter's name): empty, or only invisible characters, means none. */
export const optionalOneLine = (max: number) =>
  z
    .string()
    .meta({
      maxLength: max,
      pattern: ONE_LINE_PATTERN,
      description:
        `At most ${max} characters on one line (no line breaks, control characters or bidi overrides); ` +
        'trimmed; stored NFC-normalised; empty (or only white space and invisible characters) means none',
    })
    .refine(...atMost(max))
    .refine(...ONE_LINE)
    .trim()
    .transform((value) => (hasVisibleText(value) ? nfc(value) : undefined))
    .refine(...atMostOnceNormalized(max))
    .optional();

/** `schema`, optional, where null also means absent: a client may send either for "none". */
export const nullToAbsent = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value) => (value === null ? undefined : value));

/** As sent: an address with a space around it is refused, as the document's pattern says, not trimmed. */
export const email = z.email().max(254).meta({ maxLength: 254 });

/**
 * A PATCH body: the fields it may change, at least one of them (`minProperties: 1` in the document).
 * `null` is a value here (it clears a field), so it counts.
 */
export const patchBody = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z
    .strictObject(shape)
    .refine((body) => Object.values(body).some((value) => value !== undefined), {
      message: `give at least one of ${Object.keys(shape).join(', ')}`,
      params: { code: 'nothing_to_change' },
    })
    .meta({ minProperties: 1 });
