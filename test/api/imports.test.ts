import { once } from 'node:events';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useOtherApps, useTestApp } from '../support/app.js';
import { feedEvents } from '../support/feed.js';
import { buildTeam, buildTenant } from '../support/factories.js';

const ctx = useTestApp();
const otherApp = useOtherApps(ctx);

type Report = {
  rows: number;
  created: number;
  skipped: number;
  failed: number;
  dry_run: boolean;
  unknown_columns: string[];
  errors: { row: number; column: string; code: string; message: string }[];
};

const importCsv = (businessId: string, key: string, csv: string, query: Record<string, string> = {}) =>
  ctx
    .request()
    .post(`/businesses/${businessId}/imports`)
    .set('X-API-Key', key)
    .set('Content-Type', 'text/csv')
    .query({ kind: 'suggestions', ...query })
    .send(csv);

const listed = async (key: string, path = '/api/v1/suggestions') =>
  (await ctx.request().get(path).set('X-API-Key', key).query({ limit: 100 })).body as {
    data: Record<string, unknown>[];
    total: number;
  };

const GOOD =
  'content,status,priority,customer_name,customer_email,upvote_count,tags,created_at\r\n' +
  'More oat milk please,reviewing,high,Ana Lima,ana@example.com,12,Drinks;Menu,2026-01-31T10:15:00.000Z\r\n' +
  'The terrace is lovely,completed,low,,,3,,2025-12-01T08:00:00.000Z\r\n';

describe('POST /businesses/:id/imports', () => {
  it('When a dry run is asked, then the report says what would be created and nothing is written', async () => {
    const t = await buildTenant(ctx.db);
    const res = await importCsv(t.business.id, t.write, GOOD, { dry_run: 'true' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ rows: 2, created: 2, skipped: 0, failed: 0, dry_run: true, errors: [] });
    expect((await listed(t.read)).total).toBe(0);
  });

  it('When the file is imported, then created_at, status, priority, customer, votes and tags are kept and totals are exact', async () => {
    const t = await buildTenant(ctx.db);
    const res = await importCsv(t.business.id, t.write, GOOD);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ rows: 2, created: 2, skipped: 0, dry_run: false });
    const list = await listed(t.read);
    expect(list.total).toBe(2);
    const milk = list.data.find((item) => item.content === 'More oat milk please')!;
    expect(milk).toMatchObject({
      status: 'reviewing',
      priority: 'high',
      customer_name: 'Ana Lima',
      customer_email: 'ana@example.com',
      upvote_count: 12,
      tags: ['Drinks', 'Menu'],
      created_at: '2026-01-31T10:15:00.000Z',
      sentiment: 'positive', // computed ("please"), never read from the file
    });
    const byStatus = await ctx
      .request()
      .get('/api/v1/suggestions')
      .set('X-API-Key', t.read)
      .query({ status: 'completed' });
    expect(byStatus.body.total).toBe(1);
    const byTag = await ctx.request().get('/api/v1/suggestions').set('X-API-Key', t.read).query({ tag: 'drinks' });
    expect(byTag.body.total).toBe(1);
  });

  it('When rows are imported, then their language, sentiment and its lexicon are what a create computes from the same text', async () => {
    const created = await buildTenant(ctx.db);
    const imported = await buildTenant(ctx.db);
    const texts = [
      'Das Essen war kalt und der Service schrecklich langsam.',
      'La terrasse est magnifique, merci pour le nouveau menu !',
      'Il caffè era freddo e il servizio davvero terribile, purtroppo.',
    ];
    const computed = ['language', 'sentiment', 'sentiment_score', 'sentiment_lexicon'];
    const pick = (item: Record<string, unknown>) => Object.fromEntries(computed.map((field) => [field, item[field]]));
    const byCreate = [];
    for (const content of texts) {
      const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', created.write).send({ content });
      expect(res.status, res.text).toBe(201);
      byCreate.push(pick(res.body as Record<string, unknown>));
    }
    const csv = `content\r\n${texts.map((text) => `"${text}"`).join('\r\n')}\r\n`;
    expect((await importCsv(imported.business.id, imported.write, csv)).body).toMatchObject({ created: 3 });
    const list = await listed(imported.read);
    const byImport = texts.map((content) => pick(list.data.find((item) => item.content === content)!));
    expect(byImport).toEqual(byCreate);
    // not all alike: each language detected, scored by its lexicon, or said to be unscored
    expect(byImport.map((item) => [item.language, item.sentiment_lexicon])).toEqual([
      ['de', 'de'],
      ['fr', 'fr'],
      ['it', null],
    ]);
  });

  it('When issues are imported, then their language is what a create detects, and status and resolved_at are kept', async () => {
    const created = await buildTenant(ctx.db);
    const imported = await buildTenant(ctx.db);
    const title = 'Das Kartenlesegerät lehnt seit heute jede Zahlung ab';
    const description = 'Die Kunden müssen bar bezahlen, und die Schlange wird immer länger.';
    const res = await ctx
      .request()
      .post(`/businesses/${created.business.id}/issues`)
      .set('X-API-Key', created.write)
      .send({ title, description });
    expect(res.status, res.text).toBe(201);
    const csv =
      'title,description,status,resolved_at,created_at\r\n' +
      `${title},"${description}",resolved,2026-02-01T09:00:00.000Z,2026-01-31T10:15:00.000Z\r\n`;
    const report = await importCsv(imported.business.id, imported.write, csv, { kind: 'issues' });
    expect(report.status, report.text).toBe(200);
    const [issue] = (await listed(imported.read, '/api/v1/issues')).data;
    expect(issue).toMatchObject({
      title,
      description,
      language: (res.body as { language: string }).language,
      status: 'resolved',
      resolved_at: '2026-02-01T09:00:00.000Z',
      created_at: '2026-01-31T10:15:00.000Z',
    });
    expect(issue!.language).toBe('de');
  });

  it('When a row has errors, then nothing is written and the 422 report names each row and column', async () => {
    const t = await buildTenant(ctx.db);
    const csv = GOOD + ',pending,low,,,,,\r\nFine,maybe,low,,not-an-email,,,\r\n';
    const res = await importCsv(t.business.id, t.write, csv);
    expect(res.status, res.text).toBe(422);
    const report = res.body as Report;
    expect(report).toMatchObject({ rows: 4, created: 0, failed: 2 });
    expect(report.errors.map(({ row, column, code }) => ({ row, column, code }))).toEqual([
      { row: 4, column: 'content', code: 'required' },
      { row: 5, column: 'status', code: 'invalid_choice' },
      { row: 5, column: 'customer_email', code: 'invalid_email' },
    ]);
    expect((await listed(t.read)).total).toBe(0);
  });

  it('When on_error=skip, then the good rows are written and the bad ones reported', async () => {
    const t = await buildTenant(ctx.db);
    const res = await importCsv(t.business.id, t.write, GOOD + ',pending,low,,,,,\r\n', { on_error: 'skip' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ rows: 3, created: 2, failed: 1, errors: [{ row: 4, column: 'content' }] });
    expect((await listed(t.read)).total).toBe(2);
  });

  it('When other headers are mapped with columns, then they are read, and unknown ones are named and ignored', async () => {
    const t = await buildTenant(ctx.db);
    const csv = 'Details,Date,Internal note,Who\r\nCold coffee,2025-06-01T12:00:00Z,ignore me,Bo\r\n';
    const columns = JSON.stringify({ content: 'Details', created_at: 'Date', customer_name: 'Who' });
    const res = await importCsv(t.business.id, t.write, csv, { columns });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 1, unknown_columns: ['Internal note'] });
    expect((await listed(t.read)).data[0]).toMatchObject({
      content: 'Cold coffee',
      customer_name: 'Bo',
      created_at: '2025-06-01T12:00:00.000Z',
    });
  });

  it('When columns names no field or is not JSON, then it is a 400', async () => {
    const t = await buildTenant(ctx.db);
    for (const columns of ['{"colour":"Details"}', 'not json']) {
      const res = await importCsv(t.business.id, t.write, GOOD, { columns });
      expect(res.status, res.text).toBe(400);
    }
  });

  it('When the same file is imported again, then nothing is created and every row is skipped', async () => {
    const t = await buildTenant(ctx.db);
    expect((await importCsv(t.business.id, t.write, GOOD)).body).toMatchObject({ created: 2 });
    const again = await importCsv(t.business.id, t.write, GOOD);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ rows: 2, created: 0, skipped: 2 });
    expect((await listed(t.read)).total).toBe(2);
  });

  it('When the import commits, then one import.completed event is published and no event per item', async () => {
    const t = await buildTenant(ctx.db);
    await importCsv(t.business.id, t.write, GOOD);
    const events = await feedEvents(() => ctx.request(), t.read, 1);
    expect(events.map((event) => event.type)).toEqual(['import.completed']);
    expect(events[0]!.data.object).toMatchObject({ kind: 'suggestions', created: 2 });
  });

  it('When the body is past the limit, then it is a 413 with the error body and nothing is written', async () => {
    const t = await buildTenant(ctx.db);
    const small = otherApp({ limit: 1000, config: { IMPORT_MAX_BYTES: 2048 } });
    // a chunked body, written as the server reads it, ten times the limit
    const server = small.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const res = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: `/businesses/${t.business.id}/imports?kind=suggestions`,
          headers: { 'X-API-Key': t.write, 'Content-Type': 'text/csv', 'Transfer-Encoding': 'chunked' },
        },
        (answer) => {
          let text = '';
          answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) as unknown }));
        },
      );
      req.on('error', reject);
      req.write('content,status\r\n');
      for (let i = 0; i < 200; i++) req.write(`Row number ${i} of a long file,pending\r\n`);
      req.end();
    }).finally(() => server.close());
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect((await listed(t.read)).total).toBe(0);
  });

  it('When the body is not CSV, then it is a 415', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx
      .request()
      .post(`/businesses/${t.business.id}/imports?kind=suggestions`)
      .set('X-API-Key', t.write)
      .send({ content: 'json' });
    expect(res.status).toBe(415);
  });

  it('When a read key or a member imports, then it is a 403; an admin and a write key may', async () => {
    const t = await buildTeam(ctx.db);
    const as = (auth: [string, string]) =>
      ctx
        .request()
        .post(`/businesses/${t.business.id}/imports?kind=suggestions&dry_run=true`)
        .set(...auth)
        .set('Content-Type', 'text/csv')
        .send(GOOD);
    expect((await as(['X-API-Key', t.read])).status).toBe(403);
    expect((await as(['Authorization', `Bearer ${t.member.token}`])).status).toBe(403);
    expect((await as(['Authorization', `Bearer ${t.admin.token}`])).status).toBe(200);
    expect((await as(['X-API-Key', t.write])).status).toBe(200);
  });
});

describe('Export, import into another business, export', () => {
  it.each(['suggestions', 'issues'] as const)(
    'When %s are exported and imported elsewhere, then the second export has the same content, status, priority, customer and created_at',
    async (kind) => {
      const from = await buildTenant(ctx.db);
      const to = await buildTenant(ctx.db);
      const seed =
        kind === 'suggestions'
          ? GOOD + '"=1+1, a ""formula""",rejected,critical,"Lima, Ana",,0,,2024-02-29T23:59:59.999Z\r\n'
          : 'title,description,status,priority,customer_name,created_at\r\n' +
            'Card reader,"Declines taps,\nsince today",resolved,high,Bo,2026-01-02T03:04:05.678Z\r\n' +
            'Door,,open,low,,2025-01-01T00:00:00.000Z\r\n';
      expect((await importCsv(from.business.id, from.write, seed, { kind })).status).toBe(200);
      const exported = await ctx
        .request()
        .get(`/api/v1/export/${kind}`)
        .set('X-API-Key', from.read)
        .query({ format: 'csv' });
      const imported = await importCsv(to.business.id, to.write, exported.text, { kind });
      expect(imported.status, imported.text).toBe(200);
      expect(imported.body).toMatchObject({ unknown_columns: [], failed: 0 });
      const again = await ctx
        .request()
        .get(`/api/v1/export/${kind}`)
        .set('X-API-Key', to.read)
        .query({ format: 'csv' });
      const kept =
        kind === 'suggestions'
          ? ['content', 'status', 'priority', 'customer_name', 'customer_email', 'upvote_count', 'tags', 'created_at']
          : ['title', 'description', 'status', 'priority', 'customer_name', 'customer_email', 'tags', 'created_at'];
      const view = (text: string) =>
        parse<Record<string, string>>(text, { columns: true }).map((row) => kept.map((field) => row[field]));
      expect(view(again.text)).toEqual(view(exported.text));
      expect(view(again.text)).toHaveLength(kind === 'suggestions' ? 3 : 2);
      // the export's ids are the re-import key: importing the same export again creates nothing
      expect((await importCsv(to.business.id, to.write, exported.text, { kind })).body).toMatchObject({ created: 0 });
    },
  );
});
