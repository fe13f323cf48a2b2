import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/routes.js';
import { exampleOf } from '../../src/shared/responses.js';
import { suggestionSchema } from '../../src/suggestions/suggestion.responses.js';
import { ContractChecker, type ReceivedResponse } from '../support/contract.js';

const checker = new ContractChecker(apiDocument());
const ID = '01a1fe5a-c87a-74c9-baa1-8d41deef85f3';
const NOW = '2026-01-31T09:30:00.000Z';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ReceivedResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r1', ...headers },
  body,
});
const limited = { ratelimit: '"60-in-1min"; r=59; t=60', 'ratelimit-policy': '"60-in-1min"; q=60; w=60' };
const notFound = {
  statusCode: 404,
  message: 'Suggestion not found',
  error: 'Not Found',
  code: 'NOT_FOUND',
  requestId: 'r1',
};
const comment = {
  id: ID,
  entity_type: 'suggestion',
  entity_id: ID,
  content: 'Thanks',
  author_id: ID,
  created_at: NOW,
  merged_from: null,
};

describe('the contract check (test/support/contract.ts)', () => {
  it('When a response matches its operation and status, then it finds nothing', () => {
    expect(checker.check('POST', `/api/v1/suggestions/${ID}/comments`, json(201, comment, limited))).toEqual([]);
    expect(checker.check('GET', `http://127.0.0.1:1/api/v1/suggestions/${ID}?x=1`, json(404, notFound))).toEqual([]);
  });

  it('When the body has a field too many, one too few or a wrong value, then each is reported', () => {
    const [extra] = checker.check(
      'POST',
      `/api/v1/suggestions/${ID}/comments`,
      json(201, { ...comment, secret: 1 }, limited),
    );
    expect(extra).toMatch(/does not match .* must NOT have additional properties/s);
    const { author_id: _, ...missing } = comment;
    expect(checker.check('POST', `/api/v1/suggestions/${ID}/comments`, json(201, missing, limited))[0]).toMatch(
      /must have required property 'author_id'/,
    );
    const wrong = { ...notFound, code: 'SOMETHING_NEW' };
    expect(checker.check('GET', `/api/v1/suggestions/${ID}`, json(404, wrong))[0]).toMatch(/allowed values/);
  });

  it('When the status or the content type is not documented, then it is reported', () => {
    expect(checker.check('GET', '/api/v1/suggestions', json(409, {}))[0]).toMatch(/status 409 is not documented/);
    const text = { status: 200, headers: { 'content-type': 'text/plain', 'x-request-id': 'r', ...limited }, body: {} };
    expect(checker.check('GET', `/businesses/${ID}/qr-codes/${ID}/image`, text)).toEqual([
      expect.stringMatching(/content type text\/plain is not documented \(image\/svg\+xml, image\/png\)/),
    ]);
  });

  it('When a required header is missing, then it is reported', () => {
    const found = checker.check('POST', `/api/v1/suggestions/${ID}/comments`, json(201, comment));
    expect(found).toEqual([
      expect.stringMatching(/required header RateLimit is missing/),
      expect.stringMatching(/RateLimit-Policy/),
    ]);
  });

  it('When a route is missing from the document, then any answer but a rejection before routing is reported', () => {
    expect(checker.check('GET', `/api/v1/reports`, json(200, { data: [] }, limited))[0]).toMatch(/no operation/);
    const invalidQuery = { statusCode: 400, message: 'Query failed: x', error: 'Bad Request', code: 'INVALID_QUERY' };
    expect(checker.check('GET', `/api/v1/reports`, json(400, invalidQuery))[0]).toMatch(/no operation/);
    const unrouted = {
      statusCode: 404,
      message: 'Route POST /api/v1/issues not found',
      error: 'Not Found',
      code: 'ROUTE_NOT_FOUND',
      requestId: 'r1',
    };
    expect(checker.check('POST', '/api/v1/issues', json(404, unrouted))).toEqual([]);
    const unauthorized = {
      statusCode: 401,
      message: 'An API key is required',
      error: 'Unauthorized',
      code: 'UNAUTHORIZED',
      requestId: 'r1',
    };
    expect(checker.check('GET', '/api/v1/reports', json(401, unauthorized))).toEqual([]);
  });

  it('When a 204 carries a body, then it is reported; the docs page is not part of the API', () => {
    expect(
      checker.check('DELETE', `/businesses/${ID}/qr-codes/${ID}`, { ...json(204, {}, limited), text: '{}' })[0],
    ).toMatch(/no body/);
    expect(checker.check('GET', '/docs', { status: 200, headers: { 'content-type': 'text/html' }, body: {} })).toEqual(
      [],
    );
  });
});

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
}

describe('the examples in the document', () => {
  const document = apiDocument() as Json & { paths: Record<string, Record<string, Json>>; components: Json };
  const components = document.components as { schemas: Record<string, Json>; responses: Record<string, Json> };
  const resolve = (object: Json): Json => {
    const ref = object.$ref as string | undefined;
    return ref ? (components.responses[ref.split('/').at(-1)!] as Json) : object;
  };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

  /** Every media type of a request or response, with where it is. */
  function mediaOf(name: string, op: Json): { where: string; type: string; media: Media }[] {
    const found: { where: string; type: string; media: Media }[] = [];
    const body = op.requestBody as { content: Record<string, Media> } | undefined;
    for (const [type, media] of Object.entries(body?.content ?? {}))
      found.push({ where: `${name} request`, type, media });
    for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
      const content = resolve(response).content as Record<string, Media> | undefined;
      for (const [type, media] of Object.entries(content ?? {}))
        found.push({ where: `${name} ${status}`, type, media });
    }
    return found;
  }

  it('When every operation is read, then each body it takes or gives has an example that matches its schema', () => {
    const problems: string[] = [];
    for (const { name, op } of operations) {
      for (const { where, type, media } of mediaOf(name, op)) {
        // A binary image cannot be written in a JSON document.
        const mediaType = media.schema?.contentMediaType;
        if (media.schema?.format === 'binary' || (typeof mediaType === 'string' && mediaType.startsWith('image/')))
          continue;
        if (media.example === undefined) {
          problems.push(`${where} ${type}: no example`);
          continue;
        }
        problems.push(...checker.validate(media.schema ?? {}, media.example).map((p) => `${where} ${type}: ${p}`));
      }
    }
    expect(problems).toEqual([]);
  });

  it('When an operation takes a body or answers with one, then a client author finds an example of each', () => {
    const withBody = operations.filter(({ op }) => op.requestBody);
    expect(withBody.length).toBeGreaterThanOrEqual(17);
    for (const { name, op } of operations) {
      const success = Object.entries(op.responses as Record<string, Json>).filter(([status]) => status < '300');
      const bodies = success.flatMap(([, response]) =>
        Object.values((response.content as Record<string, Media>) ?? {}),
      );
      // Only a 204, or a 202 that accepts without describing anything, has no body to show.
      if (success.every(([status, response]) => status === '204' || (status === '202' && !response.content))) continue;
      expect(
        bodies.some((media) => media.example !== undefined),
        name,
      ).toBe(true);
    }
  });

  it('When a component schema declares examples, then each matches the schema; every component has one', () => {
    const problems: string[] = [];
    for (const [name, schema] of Object.entries(components.schemas)) {
      const examples = schema.examples as unknown[] | undefined;
      if (!examples?.length) {
        problems.push(`${name}: no example`);
        continue;
      }
      for (const example of examples) {
        problems.push(
          ...checker.validate({ $ref: `#/components/schemas/${name}` }, example).map((p) => `${name}: ${p}`),
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('When an example breaks its schema, then the check reports it', () => {
    const broken = { ...(exampleOf(suggestionSchema) as Json), status: 'archived' };
    expect(checker.validate({ $ref: '#/components/schemas/Suggestion' }, broken)[0]).toMatch(/allowed values/);
  });
});
