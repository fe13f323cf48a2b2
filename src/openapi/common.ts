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

export const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({
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
  WWWAuthenticate: { description: 'Always `Bearer`', required: true, schema: { type: 'string', const: 'Bearer' } },
};

export function errorResponses(): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of ERROR_STATUSES) {
    responses[errorResponseName(status)] = {
      description: STATUS_CODES[status],
      headers: {
        'X-Request-Id': ref('headers', 'XRequestId'),
        ...(status === 401 ? { 'WWW-Authenticate': ref('headers', 'WWWAuthenticate') } : {}),
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
and body fields are a 400, malformed and unknown ids a 404.
`;
