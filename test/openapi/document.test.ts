import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../src/outbox/event.types.js';
import { rateLimitBody } from '../../src/errors/http-error.js';
import { componentId } from '../../src/openapi/json-schema.js';
import { apiDocument } from '../../src/routes.js';
import { ERROR_CODES, ERROR_STATUSES, errorBodySchemas } from '../../src/shared/responses.js';
import { useOtherApps, useTestApp } from '../support/app.js';

const ctx = useTestApp();
const otherApp = useOtherApps(ctx);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON, read like a supertest body
type Json = Record<string, any>;
const document = apiDocument() as Json;
const operations = Object.entries(document.paths as Json).flatMap(([path, methods]) =>
  Object.entries(methods as Json).map(([method, op]) => ({ path, method, op: op as Json })),
);
const operation = (method: string, path: string) => document.paths[path][method] as Json;
const parameter = (op: Json, name: string) => (op.parameters as Json[]).find((p) => p.name === name)!;
const schema = (name: string) => document.components.schemas[name] as Json;
const requestBody = (op: Json) => op.requestBody.content['application/json'].schema as Json;

describe('GET /api/v1/openapi.json', () => {
  it('When asked without a credential, then it is the generated OpenAPI 3.1 document', async () => {
    const res = await ctx.request().get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(document)));
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('When asked again and again, even past every limit, then it is never rate limited', async () => {
    const app = otherApp({ limit: 1, failedAuthLimit: 1 });
    for (let i = 0; i < 5; i++) {
      const res = await app.request().get('/api/v1/openapi.json').set('X-API-Key', 'not-a-key');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
  });
});

describe('the document', () => {
  it('When read for webhooks, then every event type has its signed payload, whose object is the resource read', () => {
    expect(Object.keys(document.webhooks as Json).sort()).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE].sort());
    const updated = document.webhooks['suggestion.updated'].post as Json;
    expect((updated.parameters as Json[]).map((p) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const joined = schema(updated.requestBody.content['application/json'].schema.$ref.split('/').at(-1));
    const body = schema(joined.discriminator.mapping['suggestion.updated'].split('/').at(-1));
    expect(body.required).toEqual(['type', 'timestamp', 'data']);
    expect(body.properties.data.properties.object).toEqual({ $ref: '#/components/schemas/DashboardSuggestion' });
    expect(body.properties.data.required).toEqual(['object', 'changes']);
  });

  it('When a client generates types, then feed events and webhook bodies are one schema per type, joined on type', () => {
    const feedItem = schema('EventFeed').properties.data.items;
    const webhookBodies = Object.values(document.webhooks as Json).map(
      (hook) => hook.post.requestBody.content['application/json'].schema,
    );
    for (const [joined, types] of [
      [feedItem, EVENT_TYPES],
      ...webhookBodies.map((body) => [body, [...EVENT_TYPES, TEST_EVENT_TYPE]] as const),
    ] as const) {
      const union = schema((joined as Json).$ref.split('/').at(-1));
      expect(union.discriminator.propertyName).toBe('type');
      expect(Object.keys(union.discriminator.mapping).sort()).toEqual([...types].sort());
      expect(union.oneOf.map((member: Json) => member.$ref).sort()).toEqual(
        Object.values(union.discriminator.mapping).sort(),
      );
      for (const [type, ref] of Object.entries(union.discriminator.mapping as Record<string, string>)) {
        const member = schema(ref.split('/').at(-1)!);
        expect(member.properties.type).toEqual({ type: 'string', const: type });
        expect(member.required).toContain('type');
      }
    }
  });

  it('When a client reads the error bodies, then code and requestId are typed as sent: always there, code from its list', () => {
    for (const status of ERROR_STATUSES) {
      const body = schema(componentId(errorBodySchemas[status]));
      expect(body.required, String(status)).toEqual(expect.arrayContaining(['code', 'requestId']));
      expect(body.properties.code.enum, String(status)).toEqual([...ERROR_CODES[status]]);
    }
    const limited = schema('RateLimitError').properties.error;
    expect(limited.properties.code).toEqual({ type: 'string', const: rateLimitBody('', 1).error.code });
    expect(limited.required).toEqual(['code', 'message', 'retryAfter']);
  });

  it('covers both route families, the auth routes and the service routes', () => {
    const paths = Object.keys(document.paths);
    for (const expected of [
      '/api/v1/suggestions',
      '/api/v1/suggestions/{id}/comments',
      '/api/v1/issues/{id}',
      '/api/v1/export/issues',
      '/businesses/{business_id}/suggestions/{id}',
      '/api/v1/suggestions/{id}/reply',
      '/businesses/{business_id}/suggestions/{id}/reply',
      '/api/v1/suggestions/{id}/merge',
      '/businesses/{business_id}/suggestions/{id}/unmerge',
      '/api/v1/suggestions/{id}/similar',
      '/businesses/{business_id}/issues/{id}/comments',
      '/businesses/{business_id}/qr-codes/{id}/image',
      '/businesses/{business_id}/team/invites/{id}',
      '/businesses/{business_id}/api-keys/{id}',
      '/businesses/{business_id}/analytics/overview',
      '/businesses/{business_id}',
      '/businesses/{business_id}/locations/{id}',
      '/businesses/{business_id}/team/members/{user_id}',
      '/auth/login',
      '/auth/me',
      '/invites/accept',
      '/auth/password-reset',
      '/auth/password-reset/confirm',
      '/auth/password',
      '/auth/me/sessions',
      '/auth/me/sessions/{session_id}',
      '/auth/me/email',
      '/auth/email-confirm',
      '/auth/setup',
      '/auth/sign-up',
      '/auth/sign-up/confirm',
      '/health',
      '/api/v1/events',
      '/businesses/{business_id}/events',
    ]) {
      expect(paths).toContain(expected);
    }
    // + the votes of both families, the public page's JSON side, the reply of both families (PUT, DELETE),
    // following by email (the page's JSON side, the business's list of followers), merging duplicates
    // (merge, unmerge, similar, in both families), tags (their list in both families, create, change
    // and delete; adding and removing them on suggestions and issues), the changelog (the business
    // family's list, create, read, change, delete and publish; /api/v1's list, read and create), the
    // roadmap (both families) and the page's similar suggestions, the business's logo (PUT, DELETE),
    // the profile (your name, your address and its confirmation, your sessions and signing one out),
    // the CSV import and the inbox's bulk change, and the first run and sign-up the dashboard's pages
    // run (whether the first run is open, completing it, signing up and confirming a sign-up)
    expect(operations).toHaveLength(66 + 6 + 4 + 4 + 2 + 6 + 9 + 9 + 3 + 2 + 5 + 1 + 1 + 4);
  });

  it('shows the enums, the 2000-character limit and the page-size bounds as schema constraints', () => {
    const list = operation('get', '/api/v1/suggestions');
    expect(parameter(list, 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    expect(parameter(list, 'page').schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(parameter(list, 'status').schema.enum).toEqual([
      'pending',
      'reviewing',
      'in_progress',
      'completed',
      'rejected',
    ]);
    expect(parameter(list, 'priority').schema.enum).toEqual(['low', 'medium', 'high', 'critical']);
    expect(parameter(list, 'sentiment').schema.enum).toEqual(['positive', 'neutral', 'negative']);
    expect(parameter(operation('get', '/businesses/{business_id}/issues'), 'offset').schema).toMatchObject({
      type: 'integer',
      minimum: 0,
      default: 0,
    });
    expect(parameter(operation('get', '/api/v1/issues'), 'status').schema.enum).toEqual([
      'open',
      'assigned',
      'in_progress',
      'resolved',
      'closed',
    ]);

    const create = requestBody(operation('post', '/api/v1/suggestions'));
    expect(create.required).toEqual(['content']);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.content).toMatchObject({ type: 'string', minLength: 1, maxLength: 2000 });
    expect(create.properties.visibility).toMatchObject({ enum: ['internal', 'public'], default: 'internal' });
    expect(create.properties.status).toMatchObject({ default: 'pending' });
    expect(schema('Suggestion').properties.content.maxLength).toBe(2000);
  });

  it('declares both credentials and, per operation, the scope or roles it needs', () => {
    expect(document.components.securitySchemes).toEqual({
      ApiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      BearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    const read = operation('get', '/api/v1/suggestions');
    expect(read.security).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }]);
    expect(read['x-required-scope']).toBe('read');
    expect(operation('post', '/api/v1/suggestions/{id}/comments')['x-required-scope']).toBe('write');

    const invite = operation('post', '/businesses/{business_id}/team/invite');
    expect(invite.security).toEqual([{ BearerAuth: [] }]);
    expect(invite['x-required-scope']).toBeUndefined();
    expect(invite['x-required-roles']).toEqual(['owner', 'admin']);
    expect(invite.description).toContain('owner');
    expect(invite.description).toContain('API keys cannot do this');
    // accepting takes a session when the invited email already has an account
    expect(operation('post', '/invites/accept').security).toEqual([{}, { BearerAuth: [] }]);

    const keys = operation('post', '/businesses/{business_id}/api-keys');
    expect(keys.security).toEqual([{ BearerAuth: [] }]);
    expect(keys['x-required-scope']).toBeUndefined();
    expect(keys.description).toContain('API keys cannot do this');

    for (const open of [operation('post', '/auth/login'), operation('get', '/health')])
      expect(open.security).toEqual([]);
  });

  it('documents every error and the 429 with its body and headers on every limited operation', () => {
    for (const { op } of operations.filter(({ op }) => op.security.length > 0)) {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '429', '500', '503']));
      expect(op.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
      const success = Object.entries(op.responses as Json).find(([status]) => status.startsWith('2'))![1] as Json;
      expect(Object.keys(success.headers)).toContain('X-Request-Id');
    }
    const tooMany = document.components.responses.TooManyRequests;
    expect(tooMany.headers['Retry-After']).toEqual({ $ref: '#/components/headers/RetryAfter' });
    expect(schema('RateLimitError').properties.error.properties.code).toEqual({
      type: 'string',
      const: 'RATE_LIMIT_EXCEEDED',
    });
    expect(schema('NotFoundError').required).toEqual(['statusCode', 'message', 'error', 'code', 'requestId']);
    expect(operation('get', '/api/v1/suggestions/{id}').responses['404']).toBeDefined();

    const limited = operation('get', '/api/v1/issues').responses['200'].headers;
    expect(Object.keys(limited)).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
  });

  it('When a webhook endpoint is created or its secret rotated, then the document says a replay withholds the secret', () => {
    for (const path of [
      '/businesses/{business_id}/webhooks',
      '/businesses/{business_id}/webhooks/{id}/rotate-secret',
    ]) {
      const op = operation('post', path);
      expect(op.description, path).toContain('`secret` set to null');
      const success = Object.values(op.responses as Json).find((r: Json) => r.content && !r.$ref) as Json;
      expect(success.headers['Idempotent-Replay-Withheld'], path).toEqual({
        $ref: '#/components/headers/IdempotentReplayWithheld',
      });
      const body = schema(success.content['application/json'].schema.$ref.split('/').at(-1));
      expect(body.properties.secret.description, path).toContain('Null in an Idempotency-Key replay');
    }
    expect(
      operation('post', '/api/v1/suggestions').responses['201'].headers['Idempotent-Replay-Withheld'],
    ).toBeUndefined();
  });

  it('When an export is read about, then its bom parameter is documented, CSV only and off by default', () => {
    for (const path of ['/api/v1/export/suggestions', '/api/v1/export/issues']) {
      const bom = parameter(operation('get', path), 'bom');
      expect(bom, path).toMatchObject({ in: 'query', required: false });
      expect(bom.schema.enum, path).toEqual(['true', 'false']);
      expect(bom.description, path).toMatch(/byte-order mark \(EF BB BF\)/);
    }
  });

  it('describes exports in both formats and QR images by their media types', () => {
    const exported = operation('get', '/api/v1/export/suggestions').responses['200'];
    expect(Object.keys(exported.content)).toEqual(['application/json', 'text/csv']);
    expect(exported.headers['X-Total-Count'].required).toBe(true);
    expect(parameter(operation('get', '/api/v1/export/suggestions'), 'format').schema.enum).toEqual(['json', 'csv']);
    const image = operation('get', '/businesses/{business_id}/qr-codes/{id}/image').responses['200'];
    expect(Object.keys(image.content)).toEqual(['image/svg+xml', 'image/png']);
  });
});
