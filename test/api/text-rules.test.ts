import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTeam } from '../support/factories.js';

/**
 * One rule for text in every field of both families (src/shared/unicode.ts): text that is not valid
 * Unicode (a lone surrogate, bytes that are not UTF-8) is a 400 naming the field, never stored as
 * other text; text made only of invisible characters is empty; the maximum length counts the text
 * as sent, as the document's maxLength does.
 */
const ctx = useTestApp();
type Team = Awaited<ReturnType<typeof buildTeam>>;

const asOwner = (t: Team) => ({ Authorization: `Bearer ${t.ownerToken}` });

/** Sends `json` exactly as written: escapes such as `\ud800` reach the server as they are. */
function postRaw(
  path: string,
  headers: Record<string, string>,
  json: string | Buffer,
  method: 'post' | 'patch' = 'post',
) {
  const agent = ctx.request();
  const request = method === 'post' ? agent.post(path) : agent.patch(path);
  return request
    .set(headers)
    .set('Content-Type', 'application/json')
    .serialize((body: string | Buffer) => body as string)
    .send(json);
}

/** `{"<field>":"<before>` + bytes that are not UTF-8 + `<after>"}`. */
const withBadBytes = (field: string, before: string, after = '') =>
  Buffer.concat([Buffer.from(`{"${field}":"${before}`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(`${after}"}`)]);

function expectFieldRefused(res: { status: number; body: { message?: string }; text: string }, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.message).toMatch(new RegExp(`^Validation failed: ${field}: must be valid Unicode text`));
}

describe('text that is not valid Unicode', () => {
  it('When a QR code label holds a lone surrogate, then create and PATCH are both a 400 naming label', async () => {
    const t = await buildTeam(ctx.db);
    const base = `/businesses/${t.business.id}/qr-codes`;
    expectFieldRefused(await postRaw(base, asOwner(t), '{"label":"Table \\ud800"}'), 'label');

    const qr = await ctx.request().post(base).set(asOwner(t)).send({ label: 'Table 4' });
    expect(qr.status).toBe(201);
    expectFieldRefused(
      await postRaw(`${base}/${qr.body.id}`, asOwner(t), '{"label":"Table \\udc00 4"}', 'patch'),
      'label',
    );
    const read = await ctx.request().get(`${base}/${qr.body.id}`).set(asOwner(t));
    expect(read.body.label).toBe('Table 4');
  });

  it('When content holds bytes that are not UTF-8, then both families answer 400 naming the field and store nothing', async () => {
    const t = await buildTeam(ctx.db);
    expectFieldRefused(
      await postRaw('/api/v1/suggestions', { 'X-API-Key': t.write }, withBadBytes('content', 'caf', ' au lait')),
      'content',
    );
    expectFieldRefused(
      await postRaw(`/businesses/${t.business.id}/issues`, asOwner(t), withBadBytes('title', 'Broken ')),
      'title',
    );
    const list = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    expect(list.body.total).toBe(0);
  });

  it('When a customer name or a comment holds a reversed surrogate pair, then it is a 400 naming the field', async () => {
    const t = await buildTeam(ctx.db);
    expectFieldRefused(
      await postRaw(
        '/api/v1/suggestions',
        { 'X-API-Key': t.write },
        '{"content":"Hi","customer_name":"Ann \\ude00\\ud83d"}',
      ),
      'customer_name',
    );
    const suggestion = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Hi' });
    expectFieldRefused(
      await postRaw(
        `/api/v1/suggestions/${suggestion.body.id}/comments`,
        { 'X-API-Key': t.write },
        '{"content":"\\udfff"}',
      ),
      'content',
    );
  });

  it('When a password, an email or a key name is not valid Unicode, then it is a 400 naming it, with or without a credential', async () => {
    const t = await buildTeam(ctx.db);
    expectFieldRefused(
      await postRaw('/auth/login', {}, '{"email":"a@example.com","password":"pass\\ud800word"}'),
      'password',
    );
    expectFieldRefused(await postRaw('/auth/login', {}, withBadBytes('email', 'a', '@example.com')), 'email');
    expectFieldRefused(
      await postRaw(`/businesses/${t.business.id}/api-keys`, asOwner(t), '{"name":"CRM \\ud800"}'),
      'name',
    );
  });

  it('When a well-formed pair (an emoji) is sent as escapes, then it is stored as that emoji', async () => {
    const t = await buildTeam(ctx.db);
    const res = await postRaw(
      '/api/v1/suggestions',
      { 'X-API-Key': t.write },
      '{"content":"More \\ud83d\\ude00 please"}',
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.content).toBe('More 😀 please');
  });
});

describe('text made only of invisible characters', () => {
  it.each([
    ['zero-width spaces', '\u200b\u200b\u200b'],
    ['a word joiner and a byte-order mark', ' \u2060\ufeff '],
    ['Hangul fillers', '\u3164\u3164'],
  ])('When content is only %s, then it is empty: a 400 in both families', async (_label, invisible) => {
    const t = await buildTeam(ctx.db);
    const v1 = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: invisible });
    expect(v1.status).toBe(400);
    expect(v1.body.message).toMatch(/^Validation failed: content: must not be empty/);
    const business = await ctx
      .request()
      .post(`/businesses/${t.business.id}/locations`)
      .set(asOwner(t))
      .send({ name: invisible });
    expect(business.status).toBe(400);
    expect(business.body.message).toMatch(/^Validation failed: name: must not be empty/);
  });

  it('When an optional name is only invisible characters, then it means none, as an empty one does', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Quieter music', customer_name: '\u200b \u200d' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ customer_name: null, is_anonymous: true });
  });

  it('When visible text carries a zero-width joiner inside, then it is kept as sent', async () => {
    const t = await buildTeam(ctx.db);
    const family = '👩\u200d👩\u200d👧';
    const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: family });
    expect(res.status).toBe(201);
    expect(res.body.content).toBe(family);
  });
});

describe('length bounds', () => {
  it('When content is 2000 characters plus surrounding spaces, then it is over maxLength: a 400, as the document says', async () => {
    const t = await buildTeam(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: ` ${'a'.repeat(2000)} ` });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed: content: must be at most 2000 characters');
  });
});
