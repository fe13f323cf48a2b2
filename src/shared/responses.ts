import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { invalidInput, RATE_LIMIT_CODE, type FieldError } from '../errors/http-error.js';
import { EXAMPLE } from './examples.js';

/**
 * Response shapes shared by every feature: the error bodies, the 429 body and the list envelopes.
 * The OpenAPI document is generated from these; the contract test holds every response to them.
 */

/** Machine-readable `code`s each error status can carry (errors.ts, error-handler.ts, auth, services). */
export const ERROR_CODES = {
  400: [
    'INVALID_QUERY',
    'VALIDATION_FAILED',
    'MALFORMED_JSON',
    'BODY_TOO_DEEP',
    'MALFORMED_BODY',
    'MALFORMED_PATH',
    'BAD_REQUEST',
    'INVALID_IDEMPOTENCY_KEY',
  ],
  401: [
    'UNAUTHORIZED',
    'INVALID_INVITE',
    'INVALID_RESET_TOKEN',
    'INVALID_CONFIRMATION_TOKEN',
    'INVALID_SIGNUP_TOKEN',
    'WRONG_PASSWORD',
    'SIGN_IN_REQUIRED',
  ],
  403: [
    'PLAN_REQUIRED',
    'INSUFFICIENT_SCOPE',
    'INSUFFICIENT_ROLE',
    'NO_BUSINESS_ACCESS',
    'FORBIDDEN',
    'INVITE_FOR_ANOTHER_ACCOUNT',
    'INVALID_SETUP_TOKEN',
  ],
  404: ['NOT_FOUND', 'ROUTE_NOT_FOUND'],
  409: [
    'CONFLICT',
    'IDEMPOTENCY_KEY_IN_USE',
    'WEBHOOK_LIMIT_REACHED',
    'API_KEY_LIMIT_REACHED',
    'SUGGESTION_MERGED',
    'SUGGESTION_NOT_MERGED',
    'SUGGESTION_HAS_MERGED',
    'POSTED_TOKEN_USED',
  ],
  410: ['CURSOR_EXPIRED', 'CODE_INACTIVE'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  422: ['IDEMPOTENCY_KEY_REUSED', 'UNKNOWN_TAG', 'UNKNOWN_SUGGESTION', 'LOW_CONTRAST', 'UNDECODABLE_IMAGE'],
  500: ['INTERNAL_ERROR'],
  503: ['SERVICE_UNAVAILABLE'],
} as const satisfies Record<number, readonly [string, ...string[]]>;

export type ErrorStatus = keyof typeof ERROR_CODES;
export const ERROR_STATUSES = Object.keys(ERROR_CODES).map(Number) as ErrorStatus[];

/** One field's refusal in a 400's `errors` (src/errors/http-error.ts, FieldError). */
const fieldErrorSchema = z
  .object({
    field: z
      .string()
      .meta({ description: 'The field at fault, dotted (`voter.email`); empty for the body as a whole' }),
    code: z
      .string()
      .meta({ description: 'Why, for a program or a translation: `required`, `too_long`, `one_line`...' }),
    message: z.string().meta({ description: 'Why, in English' }),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .meta({ description: 'The values the words need (`max` of `too_long`)' }),
  })
  .meta({
    id: 'FieldError',
    description: 'One field refused, as data',
    examples: [
      { field: 'content', code: 'too_long', message: 'must be at most 2000 characters', params: { max: 2000 } },
    ],
  });

/** Component names of the error bodies, after the status text: `NotFoundError`, `ConflictError`... */
const errorName = (status: ErrorStatus) =>
  `${(STATUS_CODES[status] ?? 'Unknown').replace(/[^A-Za-z]/g, '')}${status === 500 ? '' : 'Error'}`;

/** The first example declared on a schema (`.meta({ examples })`); undefined when it has none. */
export function exampleOf(schema: z.ZodType): unknown {
  const examples = z.globalRegistry.get(schema)?.examples as unknown[] | undefined;
  return examples?.[0];
}

/** The 400 the reference shows: an empty comment, raised as parseBody raises it. */
const EMPTY_CONTENT = invalidInput([
  {
    field: 'content',
    code: 'required',
    message: 'must not be empty (white space and invisible characters do not count)',
  },
]);

/** What each error status typically says, for the reference's examples. */
const ERROR_EXAMPLES: Record<
  ErrorStatus,
  { message: string; code: (typeof ERROR_CODES)[ErrorStatus][number]; errors?: readonly FieldError[] }
> = {
  400: { message: EMPTY_CONTENT.message, code: 'VALIDATION_FAILED', errors: EMPTY_CONTENT.errors },
  401: { message: 'Missing or invalid credential', code: 'UNAUTHORIZED' },
  403: { message: 'This operation needs an API key with the write scope', code: 'INSUFFICIENT_SCOPE' },
  404: { message: 'Suggestion not found', code: 'NOT_FOUND' },
  409: { message: 'A location named Terrace already exists', code: 'CONFLICT' },
  410: {
    message: 'This cursor is older than the 30-day event retention, so events after it may be gone.',
    code: 'CURSOR_EXPIRED',
  },
  413: { message: 'Request body exceeds 64 KiB', code: 'PAYLOAD_TOO_LARGE' },
  415: { message: 'Request body must be JSON (Content-Type: application/json)', code: 'UNSUPPORTED_MEDIA_TYPE' },
  422: {
    message:
      'This Idempotency-Key was already used for a different request (method, path or body); send a new key for a new request',
    code: 'IDEMPOTENCY_KEY_REUSED',
  },
  500: { message: 'Internal server error', code: 'INTERNAL_ERROR' },
  503: { message: 'Service temporarily unavailable, retry shortly', code: 'SERVICE_UNAVAILABLE' },
};

/** The spec's general error body (section 7), for one status, with the codes it can carry. */
function errorBodySchema(status: ErrorStatus) {
  return z
    .object({
      statusCode: z.literal(status),
      message: z.string().meta({ description: 'Explanation; query problems begin `Query failed:`' }),
      error: z.literal(STATUS_CODES[status]!).meta({ description: 'The status name' }),
      // Both are on every error the service sends: optional here, a typed client had to test for them.
      code: z.enum(ERROR_CODES[status]).meta({ description: 'Machine-readable reason' }),
      requestId: z.string().meta({ description: 'Also sent as X-Request-Id; quote it when asking for help' }),
      errors: z.array(fieldErrorSchema).optional().meta({
        description: 'The fields at fault, each with a code: every 400 of a body or a query, and a 409 about one field',
      }),
    })
    .meta({
      id: errorName(status),
      description: `The general error body of a ${status} response`,
      examples: [
        { statusCode: status, error: STATUS_CODES[status], ...ERROR_EXAMPLES[status], requestId: EXAMPLE.requestId },
      ],
    });
}

export const errorBodySchemas = {} as Record<ErrorStatus, z.ZodType>;
for (const status of ERROR_STATUSES) errorBodySchemas[status] = errorBodySchema(status);

/** The spec's 429 body (section 7): not the general error body. */
export const rateLimitBodySchema = z
  .object({
    error: z.object({
      code: z.literal(RATE_LIMIT_CODE),
      message: z.string(),
      retryAfter: z.int().min(1).meta({ description: 'Seconds until the limit resets; equal to Retry-After' }),
    }),
  })
  .meta({
    id: 'RateLimitError',
    description: 'The body of a 429: the rate limit was exceeded',
    examples: [
      {
        error: {
          code: RATE_LIMIT_CODE,
          message: 'Rate limit of 60 requests per 60 s exceeded; retry in 17 s',
          retryAfter: 17,
        },
      },
    ],
  });

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
    .meta({
      id,
      description: 'One page of a list, paged with page and limit',
      examples: [{ data: [exampleOf(item)], total: 1, page: 1, limit: 50 }],
    });
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
    .meta({
      id,
      description: 'A slice of a list, paged with limit and offset',
      examples: [{ data: [exampleOf(item)], total: 1, limit: 50, offset: 0 }],
    });
}

/** Timestamps as presenters write them: `Date#toISOString()`, UTC, millisecond precision. */
export const timestamp = z.iso.datetime().meta({ examples: [EXAMPLE.createdAt] });
