import { STATUS_CODES } from 'node:http';
import {
  ERROR_STATUSES,
  errorBodySchemas,
  exampleOf,
  rateLimitBodySchema,
  type ErrorStatus,
} from '../shared/responses.js';
import { componentId } from './json-schema.js';

/** What every operation shares: credentials, headers, error responses and the overview text. */

export const ref = (kind: 'schemas' | 'responses' | 'headers' | 'parameters', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** Component names of the error responses: the status text without spaces (`NotFound`). */
export const errorResponseName = (status: ErrorStatus | 429) =>
  (STATUS_CODES[status] ?? String(status)).replace(/[^A-Za-z]/g, '');

export const securitySchemes = {
  ApiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description:
      'An API key (`fbk_…`) only. Accepted by /api/v1 and, for its own business, by /businesses/{business_id}. ' +
      'A session token here is a 401: sessions go in `Authorization: Bearer`.',
  },
  BearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key (fbk_…) or session token (fbs_…)',
    description:
      '`Authorization: Bearer <credential>`: an API key, or a dashboard session token from POST /auth/login ' +
      '(sessions are accepted by /businesses/{business_id}, /auth/me and /auth/logout).',
  },
};

export const headers = {
  XRequestId: {
    description: 'The request id: yours when you send a sane `X-Request-Id`, otherwise a new UUID',
    required: true,
    schema: { type: 'string', maxLength: 128 },
  },
  RateLimit: {
    description:
      'IETF RateLimit header (draft 8): `"<limit>-in-1min"; r=<requests left>; t=<seconds until the window resets>`. ' +
      'Sent on every response that went through the per-credential limit.',
    required: true,
    schema: { type: 'string', examples: ['"60-in-1min"; r=42; t=17'] },
  },
  RateLimitPolicy: {
    description: 'IETF RateLimit-Policy header (draft 8): `"<limit>-in-1min"; q=<limit>; w=60; pk=<counter hash>`',
    required: true,
    schema: { type: 'string', examples: ['"60-in-1min"; q=60; w=60; pk=:ZjkxMzYzMDk2ODk3:'] },
  },
  RetryAfter: {
    description: 'Whole seconds until the limit resets (at least 1): the same value as the body’s `retryAfter`',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  IdempotentReplayed: {
    description:
      '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`, ' +
      'returned without running the operation again',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
  IdempotentReplayWithheld: {
    description:
      'On a replay: the fields of the stored response set to null because only the first answer shows them ' +
      '(`secret`)',
    required: false,
    schema: { type: 'string', examples: ['secret'] },
  },
  WWWAuthenticate: { description: 'Always `Bearer`', required: true, schema: { type: 'string', const: 'Bearer' } },
};

/** The request header every POST and PATCH with a credential takes (docs/idempotency.md). */
export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a request repeated with the same key (and the same method, path and body) within the ' +
    'retention (24 hours by default) gets the first response again, with `Idempotent-Replayed: true`, and changes nothing more. ' +
    '1 to 255 printable ASCII characters, bare or as a quoted string (`"..."`); a UUID is a good key. Keys ' +
    'belong to the credential. The same key with another body is a 422; while the first request is still ' +
    'running, a 409 with `Retry-After`. Refusals of the credential (401, 403, 429) and 5xx are not stored.',
  schema: { type: 'string', minLength: 1, maxLength: 512, examples: ['6f1c2b7e-8d0a-4c3e-9a51-2f4b7d9e0c13'] },
};

export function errorResponses(): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of ERROR_STATUSES) {
    responses[errorResponseName(status)] = {
      description: STATUS_CODES[status],
      headers: {
        'X-Request-Id': ref('headers', 'XRequestId'),
        ...(status === 401 ? { 'WWW-Authenticate': ref('headers', 'WWWAuthenticate') } : {}),
        ...(status === 409
          ? {
              'Retry-After': {
                description: 'With an Idempotency-Key still in use: whole seconds to wait before retrying',
                required: false,
                schema: { type: 'integer', minimum: 1 },
              },
            }
          : {}),
        ...(status === 503
          ? {
              'Retry-After': {
                description:
                  'Whole seconds to wait before retrying (the service is starting, or its database unreachable)',
                required: true,
                schema: { type: 'integer', minimum: 1 },
              },
            }
          : {}),
      },
      content: {
        'application/json': {
          schema: ref('schemas', componentId(errorBodySchemas[status])),
          example: exampleOf(errorBodySchemas[status]),
        },
      },
    };
  }
  responses[errorResponseName(429)] = {
    description: 'Rate limit exceeded: the credential’s budget, or failed authentications from this address',
    headers: { 'X-Request-Id': ref('headers', 'XRequestId'), 'Retry-After': ref('headers', 'RetryAfter') },
    content: {
      'application/json': {
        schema: ref('schemas', componentId(rateLimitBodySchema)),
        example: exampleOf(rateLimitBodySchema),
      },
    },
  };
  return responses;
}

export const overview = (rateLimitPerMinute: number) => `
Feedback management: suggestions, issues and their comments, exports, QR codes, the team and API keys.

Two route families share the data:

- **\`/api/v1\`**, for integrations: the business is the API key's. Lists page with \`page\` and \`limit\`
  and answer \`{data, total, page, limit}\`.
- **\`/businesses/{business_id}\`**, for the dashboard and for keys of that business: lists page with
  \`limit\` and \`offset\` and answer \`{data, total, limit, offset}\`.

**Credentials.** An API key (\`fbk_…\`) goes in \`X-API-Key\` or \`Authorization: Bearer\`; a dashboard
session token (\`fbs_…\`, from \`POST /auth/login\`) in \`Authorization: Bearer\`. A key has the scope
\`read\` (list and retrieve) or \`write\` (also create, update and comment); a member has the role
\`owner\`, \`admin\` or \`member\`. Each operation says what it needs, also as \`x-required-scope\` and
\`x-required-roles\`.

**Rate limits.** ${rateLimitPerMinute} requests per minute per credential; every such response carries
\`RateLimit\` and \`RateLimit-Policy\`. Failed authentications are limited per client address. Over a
limit the answer is a 429 with \`Retry-After\` and the body \`{error: {code, message, retryAfter}}\`.

**Errors** have the body \`{statusCode, message, error, code?, requestId?}\`; unknown query parameters
and body fields are a 400, malformed and unknown ids a 404; under \`/businesses/{business_id}\` a business
id that is unknown, malformed or not the credential's is a 403.
`;
