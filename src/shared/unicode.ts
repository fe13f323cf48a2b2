import { isUtf8 } from 'node:buffer';

/**
 * One rule for text that is not valid Unicode, wherever it comes from: a lone UTF-16 surrogate
 * written as a JSON escape (`"\ud800"`) and bytes that are not UTF-8 are the same mistake, and both
 * are refused with a 400 naming the field, never stored as different text (U+FFFD) nor left for the
 * database to refuse. Bytes that are not UTF-8 are decoded to lone surrogates (U+DC80 to U+DCFF, as
 * Python's `surrogateescape` does), so the one check on strings finds them in the field they are in.
 */

declare global {
  interface String {
    /** ES2024, in Node since 20: false when the string holds a lone surrogate. */
    isWellFormed(): boolean;
    /** ES2024: lone surrogates replaced by U+FFFD. */
    toWellFormed(): string;
  }
}

/** Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlong forms, no surrogates), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  const next = (offset: number) => bytes[i + offset] ?? 0;
  const continuation = (offset: number, low = 0x80, high = 0xbf) => next(offset) >= low && next(offset) <= high;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return continuation(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

/**
 * Decodes UTF-8; each byte that is not part of a well-formed sequence becomes the lone surrogate
 * U+DC00 + byte, so it can be found (and refused) later instead of silently becoming U+FFFD.
 */
export function decodeUtf8(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let text = '';
  let start = 0;
  for (let i = 0; i < bytes.length;) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += bytes.toString('utf8', start, i) + String.fromCharCode(0xdc00 + bytes[i]!);
    i += 1;
    start = i;
  }
  return text + bytes.toString('utf8', start);
}

/**
 * Where in a parsed JSON value the first string (or object key) that is not valid Unicode is, as a
 * path (`['items', 0, 'name']`); undefined when every string is well formed. It walks with a stack of
 * its own, not by recursion, so no shape of input can overflow the call stack (bodies are also bounded
 * in depth before they are parsed: src/http/body.ts).
 */
export function findMalformedText(value: unknown): (string | number)[] | undefined {
  // Each pending value knows its parent, so a path is built once, for the value found (copying a
  // path per value would cost the square of the depth).
  interface Step {
    value: unknown;
    key?: string | number;
    parent?: Step;
  }
  const pathTo = (step: Step | undefined, last?: string): (string | number)[] => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at = step; at?.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  // Depth first, in document order: the children of a value are pushed last-first.
  const pending: Step[] = [{ value }];
  for (let step = pending.pop(); step !== undefined; step = pending.pop()) {
    const item = step.value;
    if (typeof item === 'string') {
      if (!item.isWellFormed()) return pathTo(step);
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index -= 1)
        pending.push({ value: item[index], key: index, parent: step });
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item as Record<string, unknown>);
      // A malformed key is named as soon as its object is reached, before the values inside it.
      const badKey = entries.find(([key]) => !key.isWellFormed());
      if (badKey) return pathTo(step, badKey[0].toWellFormed());
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!;
        pending.push({ value: child, key, parent: step });
      }
    }
  }
  return undefined;
}

/**
 * Characters that show nothing: white space, controls, and Unicode's default-ignorable code points
 * (zero-width space and joiners, soft hyphen, bidi marks, variation selectors, tags, the Hangul
 * fillers), plus the Braille blank. Text made only of these is empty text. As a JSON Schema pattern
 * (ECMA-262 with the `u` flag, as 2020-12 asks) it is the same source.
 */
const INVISIBLE_CLASS = '\\s\\p{Cc}\\p{Default_Ignorable_Code_Point}\\u2800';

/** A pattern matching text with at least one visible character. */
export const VISIBLE_PATTERN = `[^${INVISIBLE_CLASS}]`;
const VISIBLE = new RegExp(VISIBLE_PATTERN, 'u');

/** True when the text shows something: at least one character that is not invisible. */
export const hasVisibleText = (text: string): boolean => VISIBLE.test(text);

/**
 * What a one-line field (a name, a label, a title) must not hold: control characters (line breaks and
 * tabs among them, C0 and C1), the line and paragraph separators, and the bidi embeddings, overrides
 * and isolates, which reorder the text around them (a name that reads backwards in a list, or spills
 * into the rest of an email's subject). Directional marks (U+200E, U+200F) stay: they reorder nothing.
 */
const NOT_ONE_LINE_CLASS = '\\p{Cc}\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const NOT_ONE_LINE = new RegExp(`[${NOT_ONE_LINE_CLASS}]`, 'u');

/** True when the text is one line: none of the characters above. */
export const isOneLine = (text: string): boolean => !NOT_ONE_LINE.test(text);

/** A pattern matching one line of text (possibly empty). */
export const ONE_LINE_PATTERN = `^[^${NOT_ONE_LINE_CLASS}]*$`;

/**
 * A pattern matching one line with at least one visible character (a visible character is never one
 * that breaks the line: those are all white space, controls or default-ignorable).
 */
export const VISIBLE_ONE_LINE_PATTERN = `^[^${NOT_ONE_LINE_CLASS}]*${VISIBLE_PATTERN}[^${NOT_ONE_LINE_CLASS}]*$`;
