import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/routes.js';
import { useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

/**
 * The document says exactly what the server does: for each value the server refuses, a client that
 * validates against the document (Prism, a generated client) refuses it too, and for each value the
 * server accepts, the document accepts it. Each case is sent to the server and checked against the
 * schema the document gives for that parameter or field.
 */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON, read like a supertest body
type Json = Record<string, any>;

const document = apiDocument() as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

const operation = (method: string, path: string) => document.paths[path][method] as Json;
const documentAccepts = (schema: Json, value: unknown) => ajv.validate(schema, value);
const parameterSchema = (method: string, path: string, name: string) =>
  (operation(method, path).parameters as Json[]).find((p) => p.name === name)!.schema as Json;
const bodySchema = (method: string, path: string) =>
  operation(method, path).requestBody.content['application/json'].schema as Json;

const NO_VARIANT_BITS = '01a1fe5a-c87a-74c9-0aa1-8d41deef85f3';
const VALID_ID = '01a1fe5a-c87a-74c9-8aa1-8d41deef85f3';

interface QueryCase {
  name: string;
  value: string;
  accepted: boolean;
}

/** The server's answer to one query parameter on GET /api/v1/suggestions. */
async function serverAcceptsQuery(t: Team, { name, value }: QueryCase): Promise<boolean> {
  const res = await ctx
    .request()
    .get('/api/v1/suggestions')
    .query({ [name]: value })
    .set('X-API-Key', t.read);
  expect([200, 400], res.text).toContain(res.status);
  return res.status === 200;
}

describe('query parameters', () => {
  const cases: QueryCase[] = [
    { name: 'since', value: '2026-01-31', accepted: true },
    { name: 'since', value: '2026-01-31T09:30:00Z', accepted: true },
    { name: 'since', value: '2026-01-31T09:30:00.123+01:00', accepted: true },
    { name: 'since', value: '2026-01-31T09:30Z', accepted: false },
    { name: 'since', value: '2026-01-31 09:30:00Z', accepted: false },
    { name: 'since', value: '2026-01-31t09:30:00z', accepted: false },
    { name: 'since', value: '2026-01-31T09:30:00', accepted: false },
    { name: 'since', value: '2026-02-30', accepted: false },
    { name: 'q', value: 'oat milk', accepted: true },
    { name: 'q', value: '!!! ...', accepted: false },
    { name: 'q', value: '😀'.repeat(150) + 'a', accepted: true },
    { name: 'q', value: 'a'.repeat(201), accepted: false },
    { name: 'limit', value: '100', accepted: true },
    { name: 'limit', value: '101', accepted: false },
    { name: 'page', value: '99999999999', accepted: false },
  ];

  it.each(cases)('When $name=$value is sent, then server and document agree it is accepted: $accepted', async (c) => {
    const t = await buildTeam(ctx.db);
    const schema = parameterSchema('get', '/api/v1/suggestions', c.name);
    expect(documentAccepts(schema, c.name === 'q' || c.name === 'since' ? c.value : Number(c.value))).toBe(c.accepted);
    expect(await serverAcceptsQuery(t, c)).toBe(c.accepted);
  });

  it('When a number is past its bound however many digits it has, then the message says too big, not "whole number"', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .get(`/businesses/${t.business.id}/suggestions`)
      .query({ offset: '99999999999' })
      .set('X-API-Key', t.read);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Query failed: offset: Too big: expected number to be <=10000000$/);
    const word = await ctx.request().get('/api/v1/suggestions').query({ limit: 'ten' }).set('X-API-Key', t.read);
    expect(word.body.message).toBe('Query failed: limit: must be a whole number');
  });

  it('When sort=relevance comes without q, then the server refuses it and the document says so', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx.request().get('/api/v1/suggestions').query({ sort: 'relevance' }).set('X-API-Key', t.read);
    expect(res.status).toBe(400);
    const sort = (operation('get', '/api/v1/suggestions').parameters as Json[]).find((p) => p.name === 'sort')!;
    // OpenAPI 3.1 cannot relate two query parameters: the description is where the rule lives.
    expect(sort.description).toMatch(/`relevance`.*needs `q`.*400/);
  });
});

describe('path parameters', () => {
  it('When an id lacks the RFC variant bits, then the server treats it as malformed (404) and the document refuses it', async () => {
    const t = await buildTeam(ctx.db);
    const schema = parameterSchema('get', '/api/v1/suggestions/{id}', 'id');
    expect(documentAccepts(schema, NO_VARIANT_BITS)).toBe(false);
    expect(documentAccepts(schema, VALID_ID)).toBe(true);
    const res = await ctx.request().get(`/api/v1/suggestions/${NO_VARIANT_BITS}`).set('X-API-Key', t.read);
    expect(res.status).toBe(404);
  });
});

describe('request bodies', () => {
  interface BodyCase {
    label: string;
    body: Json;
    accepted: boolean;
  }
  const suggestionCases: BodyCase[] = [
    { label: 'plain content', body: { content: 'More oat milk' }, accepted: true },
    { label: 'content of 2000 characters', body: { content: 'a'.repeat(2000) }, accepted: true },
    { label: 'content of 2000 characters and a space', body: { content: `${'a'.repeat(2000)} ` }, accepted: false },
    { label: 'content of zero-width spaces', body: { content: '\u200b\u200b' }, accepted: false },
    { label: 'content of blanks', body: { content: '   ' }, accepted: false },
    {
      label: 'a location id without variant bits',
      body: { content: 'x', location_id: NO_VARIANT_BITS },
      accepted: false,
    },
    { label: 'an email with a "!"', body: { content: 'x', customer_email: 'a!b@example.com' }, accepted: false },
    {
      label: 'an email with a space around it',
      body: { content: 'x', customer_email: ' a@example.com' },
      accepted: false,
    },
    {
      label: 'an email without a dot in its domain',
      body: { content: 'x', customer_email: 'a@localhost' },
      accepted: false,
    },
    {
      label: 'an ordinary email',
      body: { content: 'x', customer_email: 'ada.l+feedback@example.co.uk' },
      accepted: true,
    },
  ];

  it.each(suggestionCases)('When a suggestion has $label, then server and document agree: $accepted', async (c) => {
    const t = await buildTeam(ctx.db);
    expect(documentAccepts(bodySchema('post', '/api/v1/suggestions'), c.body)).toBe(c.accepted);
    const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send(c.body);
    expect([201, 400], res.text).toContain(res.status);
    expect(res.status === 201).toBe(c.accepted);
  });

  it('When a PATCH body is empty, then every PATCH refuses it and the document says minProperties: 1', async () => {
    const t = await buildTeam(ctx.db);
    const owner = { Authorization: `Bearer ${t.ownerToken}` };
    const suggestion = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'x' });
    const qr = await ctx.request().post(`/businesses/${t.business.id}/qr-codes`).set(owner).send({ label: 'Door' });
    const patches = Object.entries(document.paths as Json).flatMap(([path, methods]) =>
      (methods as Json).patch ? [path] : [],
    );
    expect(patches.length).toBeGreaterThanOrEqual(6);
    for (const path of patches) {
      const schema = bodySchema('patch', path);
      if (Object.keys(schema.properties as Json).length > 1) {
        expect(schema.minProperties, path).toBe(1);
        expect(documentAccepts(schema, {}), path).toBe(false);
      }
    }
    for (const path of [
      `/api/v1/suggestions/${suggestion.body.id}`,
      `/businesses/${t.business.id}/suggestions/${suggestion.body.id}`,
      `/businesses/${t.business.id}/qr-codes/${qr.body.id}`,
      `/businesses/${t.business.id}`,
    ]) {
      const credential = path.startsWith('/api/v1/') ? { 'X-API-Key': t.write } : owner;
      const res = await ctx.request().patch(path).set(credential).send({});
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toMatch(/give at least one of/);
    }
  });
});
