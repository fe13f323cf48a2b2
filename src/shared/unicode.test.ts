import { describe, expect, it } from 'vitest';
import {
  decodeUtf8,
  findMalformedText,
  hasVisibleText,
  isOneLine,
  ONE_LINE_PATTERN,
  VISIBLE_ONE_LINE_PATTERN,
} from './unicode.js';

describe('decodeUtf8', () => {
  it('When the bytes are UTF-8, then it decodes them as Buffer#toString does', () => {
    const text = 'café ☕ 😀 \u0000 end';
    expect(decodeUtf8(Buffer.from(text))).toBe(text);
    expect(decodeUtf8(Buffer.alloc(0))).toBe('');
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80, 0x62], 'a\udc80b'],
    ['a truncated sequence', [0xe0, 0xa4], '\udce0\udca4'],
    ['an overlong slash', [0xc0, 0xaf], '\udcc0\udcaf'],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], '\udced\udca0\udc80'],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], '\udcf4\udc90\udc80\udc80'],
    ['0xFF', [0x7b, 0xff, 0x7d], '{\udcff}'],
  ])('When the bytes hold %s, then each stray byte becomes a lone surrogate', (_label, bytes, expected) => {
    const decoded = decodeUtf8(Buffer.from(bytes));
    expect(decoded).toBe(expected);
    expect(decoded.isWellFormed()).toBe(false);
  });

  it('When valid sequences surround a stray byte, then they decode unchanged', () => {
    expect(decodeUtf8(Buffer.concat([Buffer.from('é'), Buffer.from([0xff]), Buffer.from('😀')]))).toBe('é\udcff😀');
  });
});

describe('findMalformedText', () => {
  it('When every string and key is well formed, then it finds nothing', () => {
    expect(findMalformedText({ a: ['x', { b: '😀' }], c: 1, d: null })).toBeUndefined();
  });

  it('When a value or a key holds a lone surrogate, then it gives the path to it', () => {
    expect(findMalformedText({ label: 'Table \ud800' })).toEqual(['label']);
    expect(findMalformedText({ items: [{ name: 'ok' }, { name: '\udc00' }] })).toEqual(['items', 1, 'name']);
    expect(findMalformedText({ ['k\ud800']: 1 })).toEqual(['k\ufffd']);
    expect(findMalformedText('\ud83d')).toEqual([]);
  });

  it('When a value nests far deeper than any stack allows, then the walk still finds the bad string', () => {
    let value: unknown = ['\udc00'];
    for (let depth = 0; depth < 100_000; depth += 1) value = { a: value };
    const path = findMalformedText(value);
    expect(path).toHaveLength(100_001);
    expect(path?.at(-1)).toBe(0);
  });

  it('When two fields are malformed, then the first in document order is named', () => {
    expect(findMalformedText({ a: ['ok', { b: '\ud800' }], c: '\ud800' })).toEqual(['a', 1, 'b']);
  });
});

describe('hasVisibleText', () => {
  it.each([
    ['zero-width spaces', '\u200b\u200b'],
    ['joiners and marks', '\u200c\u200d\u200e\u2060\ufeff'],
    ['white space and controls', ' \t\u00a0\u3000\u0001'],
    ['Hangul fillers and a Braille blank', '\u3164\uffa0\u2800'],
    ['tags and variation selectors', '\u{e0041}\ufe0f'],
    ['a soft hyphen', '\u00ad'],
    ['nothing', ''],
  ])('When the text is only %s, then it shows nothing', (_label, text) => {
    expect(hasVisibleText(text)).toBe(false);
  });

  it.each(['a', ' 0 ', '😀', '\u200bhello', 'ก', '‑'])('When the text is %j, then it shows something', (text) => {
    expect(hasVisibleText(text)).toBe(true);
  });
});

describe('one-line text', () => {
  const samples = [
    'Café Soleil',
    'מאפייה\u200f 24',
    '👩\u200d👩\u200d👧',
    '',
    '   ',
    '\u200b',
    'a\nb',
    'a\r',
    '\tTab',
    'a\u0000b',
    'a\u007fb',
    'a\u0085b',
    'a\u2028b',
    'a\u2029b',
    'a\u202ab',
    'a\u202eb',
    'a\u2066b',
    'a\u2069b',
  ];

  it('When text holds a control character, a line or paragraph separator or a bidi embedding, override or isolate, then it is not one line', () => {
    expect(samples.filter((text) => !isOneLine(text))).toEqual(samples.slice(6));
  });

  it("When the document's patterns are applied as JSON Schema does (ECMA-262, u flag), then they say what the checks say", () => {
    const oneLine = new RegExp(ONE_LINE_PATTERN, 'u');
    const visibleOneLine = new RegExp(VISIBLE_ONE_LINE_PATTERN, 'u');
    for (const text of samples) {
      expect(oneLine.test(text), JSON.stringify(text)).toBe(isOneLine(text));
      expect(visibleOneLine.test(text), JSON.stringify(text)).toBe(isOneLine(text) && hasVisibleText(text));
    }
  });
});
