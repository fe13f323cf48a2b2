import { STATUS_CODES } from 'node:http';
import { z } from 'zod';

/**
 * Response shapes shared by every feature: the error bodies, the 429 body and the list envelopes.
 * The OpenAPI document is generated from these; the contract test holds every response to them.
 */

/** Machine-readable `code`s each error status can carry (errors.ts, error-handler.ts, auth, services). */
export const ERROR_CODES = {
  400: ['INVALID_QUERY', 'VALIDATION_FAILED', 'MALFORMED_JSON', 'BAD_REQUEST', 'INVALID_INVITE'],
  401: ['UNAUTHORIZED'],
  403: ['PLAN_REQUIRED', 'INSUFFICIENT_SCOPE', 'INSUFFICIENT_ROLE', 'NO_BUSINESS_ACCESS', 'FORBIDDEN'],
  404: ['NOT_FOUND', 'ROUTE_NOT_FOUND'],
  409: ['CONFLICT'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  500: ['INTERNAL_ERROR'],
  503: ['SERVICE_UNAVAILABLE'],
} as const satisfies Record<number, readonly [string, ...string[]]>;

export type ErrorStatus = keyof typeof ERROR_CODES;
export const ERROR_STATUSES = Object.keys(ERROR_CODES).map(Number) as ErrorStatus[];

/** Component names of the error bodies, after the status text: `NotFoundError`, `ConflictError`... */
const errorName = (status: ErrorStatus) =>
  `${(STATUS_CODES[status] ?? 'Unknown').replace(/[^A-Za-z]/g, '')}${status === 500 ? '' : 'Error'}`;

/** The spec's general error body (section 7), for one status, with the codes it can carry. */
function errorBodySchema(status: ErrorStatus) {
  return z
    .object({
      statusCode: z.literal(status),
      message: z.string().meta({ description: 'Explanation; query problems begin `Query failed:`' }),
      error: z.literal(STATUS_CODES[status]!).meta({ description: 'The status name' }),
      code: z.enum(ERROR_CODES[status]).optional().meta({ description: 'Machine-readable reason' }),
      requestId: z
        .string()
        .optional()
        .meta({ description: 'Also sent as X-Request-Id; quote it when asking for help' }),
    })
    .meta({ id: errorName(status), description: `The general error body of a ${status} response` });
}

export const errorBodySchemas = {} as Record<ErrorStatus, z.ZodType>;
for (const status of ERROR_STATUSES) errorBodySchemas[status] = errorBodySchema(status);

/** The spec's 429 body (section 7): not the general error body. */
export const rateLimitBodySchema = z
  .object({
    error: z.object({
      code: z.literal('RATE_LIMIT_EXCEEDED'),
      message: z.string(),
      retryAfter: z.int().min(1).meta({ description: 'Seconds until the limit resets; equal to Retry-After' }),
    }),
  })
  .meta({ id: 'RateLimitError', description: 'The body of a 429: the rate limit was exceeded' });

const count = z.int().min(0);

/** Page-based envelope of the versioned family (spec 4.1), named `<id>Page`. */
export function pageEnvelopeSchema(item: z.ZodType, id: string) {
  return z
    .object({
      data: z.array(item),
      total: count.meta({ description: 'Every matching item, on all pages' }),
      page: z.int().min(1).meta({ description: 'The page returned' }),
      limit: z.int().min(1).max(100).meta({ description: 'The page size used' }),
    })
    .meta({ id, description: 'One page of a list, paged with page and limit' });
}

/** Offset-based envelope of the business-scoped family (spec 4.5). */
export function offsetEnvelopeSchema(item: z.ZodType, id: string) {
  return z
    .object({
      data: z.array(item),
      total: count.meta({ description: 'Every matching item' }),
      limit: z.int().min(1).max(100).meta({ description: 'The page size used' }),
      offset: count.meta({ description: 'Items skipped before the first one returned' }),
    })
    .meta({ id, description: 'A slice of a list, paged with limit and offset' });
}

/** Timestamps as presenters write them: `Date#toISOString()`, UTC, millisecond precision. */
export const timestamp = z.iso.datetime().meta({ examples: ['2026-01-31T09:30:00.000Z'] });
