import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/openapi/api-document.js';
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
const notFound = { statusCode: 404, message: 'Suggestion not found', error: 'Not Found', code: 'NOT_FOUND' };
const comment = {
  id: ID,
  entity_type: 'suggestion',
  entity_id: ID,
  content: 'Thanks',
  author_id: ID,
  created_at: NOW,
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
    };
    expect(checker.check('POST', '/api/v1/issues', json(404, unrouted))).toEqual([]);
    const unauthorized = {
      statusCode: 401,
      message: 'An API key is required',
      error: 'Unauthorized',
      code: 'UNAUTHORIZED',
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
