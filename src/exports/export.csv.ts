import { stringify, type Options } from 'csv-stringify/sync';
import type { ExportEncoder, ExportRecord } from './export.encoder.js';

/**
 * Characters that make a spreadsheet read a cell as a formula when they open it (OWASP CSV
 * injection): `=`, `+`, `-`, `@`, tab and carriage return.
 */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * A text cell that a spreadsheet could run as a formula gets a leading `'`, which spreadsheets read
 * as "this is text". The first character is compared after NFKC normalisation, because spreadsheets
 * (Apple Numbers notably) fold compatibility forms into ASCII: the full-width `＝ ＋ － ＠`, and
 * the small, superscript and subscript forms (`﹦ ﹢ ﹣ ﹫ ⁼ ⁺ ₌ ₊`) count as triggers too.
 */
export function neutraliseFormula(text: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const char = String.fromCodePoint(first);
  // ASCII has no compatibility forms: most cells skip the normalisation
  const folded = first < 0x80 ? char : char.normalize('NFKC').charAt(0);
  return FORMULA_TRIGGERS.has(folded) ? `'${text}` : text;
}

/**
 * RFC 4180 with csv-stringify: CRLF between records, fields quoted when they hold a comma, a quote or
 * a line break, quotes doubled. Without quote_record_delimiter, setting record_delimiter stops
 * csv-stringify quoting a lone \n or \r in a field.
 */
const OPTIONS: Options = { record_delimiter: 'windows', quote_record_delimiter: true, escape_formulas: true };

/** U+FEFF, EF BB BF in UTF-8: Excel reads a CSV file as UTF-8 only when it starts with it. */
const BOM = '\uFEFF';

/** A list (an item's tags) is one cell, its values joined with `;` (which no tag name holds). */
const cellOf = (value: unknown) => (Array.isArray(value) ? value.join(';') : value);

const neutralised = (record: ExportRecord) =>
  record.map((raw) => {
    const value = cellOf(raw);
    return typeof value === 'string' ? neutraliseFormula(value) : value;
  });

/**
 * Records to CSV, a header row of `columns` first. Each batch goes through csv-stringify's sync API in
 * one call: per-record stream machinery would cost more than the encoding itself. Every record ends
 * with its CRLF, so the batches (and the header) simply follow one another.
 *
 * Formula injection: csv-stringify's `escape_formulas` covers the ASCII triggers and the four
 * full-width forms, and leaves numbers alone (a negative score stays a number). It misses the other
 * compatibility forms, so every string goes through neutraliseFormula first (a value it prefixed no
 * longer starts with a trigger); `escape_formulas` stays on as the library's own guard. Only strings
 * are touched: numeric columns stay numeric.
 */
export function csvEncoder(columns: readonly string[], { bom = false } = {}): ExportEncoder {
  return {
    begin: () => (bom ? BOM : '') + stringify([], { ...OPTIONS, header: true, columns: [...columns] }),
    encode: (records) => stringify(records.map(neutralised), OPTIONS),
    // RFC 4180 ends the last record with its line break: nothing follows it
    end: () => '',
  };
}
