import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvEncoder, neutraliseFormula } from './export.csv.js';

/** Every leading character a spreadsheet may read as the start of a formula, and who catches it. */
const TRIGGERS: [label: string, text: string, byEscapeFormulas: boolean][] = [
  ['=', '=HYPERLINK("http://evil.example","x")', true],
  ['+', '+1+1', true],
  ['-', '-2+3', true],
  ['@', '@SUM(A1:A2)', true],
  ['tab', '\t=1+1', true],
  ['carriage return', '\r=1+1', true],
  ['full-width =', '＝1+1', true],
  ['full-width +', '＋1', true],
  ['full-width -', '－1', true],
  ['full-width @', '＠SUM(A1)', true],
  ['small =', '﹦1+1', false],
  ['small +', '﹢1', false],
  ['small -', '﹣1', false],
  ['small @', '﹫SUM(A1)', false],
  ['superscript =', '⁼1', false],
  ['superscript +', '⁺1', false],
  ['subscript =', '₌1', false],
  ['subscript +', '₊1', false],
];

const SAFE = ['plain text', 'a=b', '1+1', 'x-y', "'=already quoted", ' =leading space', '', '🎉=party'];

/** One cell through csv-stringify with the given options, parsed back out of its quoting. */
const cellWith = (text: string, options: Parameters<typeof stringify>[1]) => {
  const line = stringify([[text]], options).replace(/\n$/, '');
  return line.startsWith('"') ? line.slice(1, -1).replaceAll('""', '"') : line;
};

/** Records given as objects, encoded as the export does: value arrays in column order, in batches of `batch`. */
function encode(records: Record<string, unknown>[], columns: string[], batch = 2): string {
  const encoder = csvEncoder(columns);
  const values = records.map((record) => columns.map((column) => record[column]));
  let text = encoder.begin();
  for (let i = 0; i < values.length; i += batch) text += encoder.encode(values.slice(i, i + batch));
  return text + encoder.end();
}

describe('csv-stringify escape_formulas, checked case by case', () => {
  it.each(TRIGGERS)('When a cell starts with %s, then escape_formulas alone catches it: %s', (_label, text, caught) => {
    const cell = cellWith(text, { escape_formulas: true });
    expect(cell === `'${text}`).toBe(caught);
  });

  it('When a negative number is a number, then escape_formulas leaves it alone', () => {
    expect(stringify([[-0.5]], { escape_formulas: true })).toBe('-0.5\n');
  });
});

describe('neutraliseFormula', () => {
  it.each(TRIGGERS)('When text starts with %s, then it gets a leading quote', (_label, text) => {
    expect(neutraliseFormula(text)).toBe(`'${text}`);
  });

  it.each(SAFE)('When text is %j, then it is left as it is', (text) => {
    expect(neutraliseFormula(text)).toBe(text);
  });
});

describe('csvEncoder', () => {
  it('When records are encoded, then there is a header row, CRLF line ends and RFC 4180 quoting', () => {
    const text = encode(
      [
        { a: 'x, y', b: 'say "hi"', c: 'two\nlines' },
        { a: null, b: 'café ☕', c: 3 },
        { a: 'cr\ronly', b: 'crlf\r\nboth', c: '' },
      ],
      ['a', 'b', 'c'],
    );
    expect(text).toBe('a,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n,café ☕,3\r\n"cr\ronly","crlf\r\nboth",\r\n');
  });

  it('When records come in several batches, then there is one header and every record once, in order', () => {
    const records = Array.from({ length: 7 }, (_, i) => ({ n: i, text: `row ${i}` }));
    const expected = `n,text\r\n${records.map((r) => `${r.n},${r.text}\r\n`).join('')}`;
    expect(encode(records, ['n', 'text'], 3)).toBe(expected);
    expect(encode(records, ['n', 'text'], 100)).toBe(expected);
  });

  it('When nothing is written, then the header row is still there', () => {
    expect(encode([], ['id', 'content'])).toBe('id,content\r\n');
  });

  it.each(TRIGGERS)('When a text cell starts with %s, then the encoder neutralises it', (_label, text) => {
    const out = encode([{ text }], ['text']);
    const cell = out.slice('text\r\n'.length, -2);
    const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
    expect(unquoted).toBe(`'${text}`);
  });

  it('When a numeric column is negative, then it stays a bare number while a text "-1" is quoted', () => {
    expect(encode([{ score: -0.5, count: 0, text: '-1' }], ['score', 'count', 'text'])).toBe(
      "score,count,text\r\n-0.5,0,'-1\r\n",
    );
  });
});
