import type { Response } from 'supertest';
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

describe('one-line fields', () => {
  /** Every one-line field of the API: the request that sets it, with `value` in it. */
  const oneLineFields: [string, string, (t: Team, value: string) => PromiseLike<Response>][] = [
    [
      'business name',
      'name',
      (t, v) => ctx.request().patch(`/businesses/${t.business.id}`).set(asOwner(t)).send({ name: v }),
    ],
    [
      'location name',
      'name',
      (t, v) => ctx.request().post(`/businesses/${t.business.id}/locations`).set(asOwner(t)).send({ name: v }),
    ],
    [
      'QR code label',
      'label',
      (t, v) => ctx.request().post(`/businesses/${t.business.id}/qr-codes`).set(asOwner(t)).send({ label: v }),
    ],
    [
      'API key name',
      'name',
      (t, v) => ctx.request().post(`/businesses/${t.business.id}/api-keys`).set(asOwner(t)).send({ name: v }),
    ],
    [
      'issue title',
      'title',
      (t, v) => ctx.request().post(`/businesses/${t.business.id}/issues`).set(asOwner(t)).send({ title: v }),
    ],
    [
      'issue customer name',
      'customer_name',
      (t, v) =>
        ctx
          .request()
          .post(`/businesses/${t.business.id}/issues`)
          .set(asOwner(t))
          .send({ title: 'Door', customer_name: v }),
    ],
    [
      'suggestion customer name',
      'customer_name',
      (t, v) =>
        ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'Hi', customer_name: v }),
    ],
    [
      'invitee name',
      'name',
      (_t, v) => ctx.request().post('/invites/accept').send({ token: 'fbi_x', name: v, password: 'a long password' }),
    ],
  ];

  it.each([
    ['a line feed', 'Café\nSoleil'],
    ['a carriage return', 'Café\rSoleil'],
    ['a trailing line feed', 'Café Soleil\n'],
    ['a tab', 'Café\tSoleil'],
    ['a bell (C0 control)', 'Café\u0007Soleil'],
    ['a next-line (C1 control)', 'Café\u0085Soleil'],
    ['a line separator', 'Café\u2028Soleil'],
    ['a right-to-left override', 'Café \u202eliolioS'],
    ['a right-to-left isolate', 'Café \u2067Soleil'],
  ])(
    'When a business name holds %s, then it is a 400 naming name, and the name is unchanged',
    async (_label, value) => {
      const t = await buildTeam(ctx.db);
      const res = await ctx.request().patch(`/businesses/${t.business.id}`).set(asOwner(t)).send({ name: value });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'Validation failed: name: must be one line: no line breaks, control characters or bidi overrides',
      });
      const read = await ctx.request().get(`/businesses/${t.business.id}`).set(asOwner(t));
      expect(read.body.name).toBe(t.business.name);
    },
  );

  it.each(oneLineFields)(
    'When the %s holds a line break or a bidi override, then it is a 400 naming %s',
    async (_label, field, send) => {
      const t = await buildTeam(ctx.db);
      for (const value of ['Two\nlines', 'Name \u202egnp.exe']) {
        const res = await send(t, value);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.message).toBe(
          `Validation failed: ${field}: must be one line: no line breaks, control characters or bidi overrides`,
        );
      }
    },
  );

  it('When a voter name or external id holds a line break, then casting the vote is a 400 naming it', async () => {
    const t = await buildTeam(ctx.db);
    const s = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'Hi' });
    const vote = (body: object) =>
      ctx.request().post(`/api/v1/suggestions/${s.body.id}/votes`).set('X-API-Key', t.write).send(body);
    expect((await vote({ voter: { external_id: 'u-1\nu-2' } })).body.message).toMatch(
      /^Validation failed: voter.external_id: must be one line/,
    );
    expect((await vote({ voter: { external_id: 'u-1' }, name: 'Ana\r\nBcc: x' })).body.message).toMatch(
      /^Validation failed: name: must be one line/,
    );
  });

  it('When a name carries right-to-left letters and directional marks, then it is kept as sent', async () => {
    const t = await buildTeam(ctx.db);
    const name = 'מאפייה\u200f 24 \u200eBakery';
    const res = await ctx.request().post(`/businesses/${t.business.id}/locations`).set(asOwner(t)).send({ name });
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe(name);
  });

  it('When "Café" is typed precomposed and then as e + combining accent, then it is one location name: the second is a 409', async () => {
    const t = await buildTeam(ctx.db);
    const path = `/businesses/${t.business.id}/locations`;
    const composed = await ctx.request().post(path).set(asOwner(t)).send({ name: 'Caf\u00e9' });
    expect(composed.status).toBe(201);
    const decomposed = await ctx.request().post(path).set(asOwner(t)).send({ name: 'CAFE\u0301' });
    expect(decomposed.status, decomposed.text).toBe(409);

    const other = await ctx.request().post(path).set(asOwner(t)).send({ name: 'The Cafe\u0301 Terrace' });
    expect(other.status).toBe(201);
    expect(other.body.name).toBe('The Caf\u00e9 Terrace');
    const renamed = await ctx.request().patch(`${path}/${other.body.id}`).set(asOwner(t)).send({ name: 'cafe\u0301' });
    expect(renamed.status, renamed.text).toBe(409);
  });

  it('When names are sent decomposed, then they are stored composed (NFC) and read back so', async () => {
    const t = await buildTeam(ctx.db);
    const business = await ctx
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set(asOwner(t))
      .send({ name: 'Cafe\u0301 Noe\u0308l' });
    expect(business.body.name).toBe('Caf\u00e9 No\u00ebl');
    const qr = await ctx
      .request()
      .post(`/businesses/${t.business.id}/qr-codes`)
      .set(asOwner(t))
      .send({ label: 'Terrasse n\u030a' });
    const read = await ctx.request().get(`/businesses/${t.business.id}/qr-codes/${qr.body.id}`).set(asOwner(t));
    expect(read.body.label).toBe('Terrasse n\u030a'.normalize('NFC'));
    const suggestion = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Hi', customer_name: 'Zoe\u0308' });
    expect(suggestion.body.customer_name).toBe('Zo\u00eb');
  });

  it('When a name fits as sent but grows past the bound once composed (NFC), then it is a 400, not a database error', async () => {
    const t = await buildTeam(ctx.db);
    // U+0958 is excluded from composition: NFC writes it as two code points.
    const res = await ctx
      .request()
      .post(`/businesses/${t.business.id}/locations`)
      .set(asOwner(t))
      .send({ name: '\u0958'.repeat(200) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.message).toBe('Validation failed: name: must be at most 200 characters once normalised (NFC)');
  });
});
