import { stringify } from 'csv-stringify';
import type { ExportEncoder } from './export.encoder.js';

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
 * Records to RFC 4180 text with csv-stringify's streaming API: a header row of `columns`, CRLF
 * between records, fields quoted when they hold a comma, a quote or a line break, quotes doubled.
 *
 * Formula injection: csv-stringify's `escape_formulas` covers the ASCII triggers and the four
 * full-width forms, and leaves numbers alone (a negative score stays a number). It misses the other
 * compatibility forms, so every string goes through neutraliseFormula first; `escape_formulas` stays
 * on as the library's own guard. Numbers never reach the string cast: numeric columns stay numeric.
 */
export function csvEncoder<Item extends object>(columns: readonly (keyof Item & string)[]): ExportEncoder<Item> {
  const stringifier = stringify({
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    // Without this, setting record_delimiter stops csv-stringify quoting a lone \n or \r in a field.
    quote_record_delimiter: true,
    escape_formulas: true,
    cast: { string: neutraliseFormula },
  });
  return {
    output: stringifier,
    // An array in column order spares csv-stringify resolving every column as a property path.
    // The writer drains the output as it comes, so the stringifier never holds more than a batch.
    write: (item) => void stringifier.write(columns.map((column) => item[column])),
    end: () => void stringifier.end(),
  };
}
