import { describe, expect, it } from 'vitest';
import { searchParam, toPrefixQuery } from './search.js';

describe('toPrefixQuery', () => {
  it('When words are given, then each becomes a lower-cased prefix term joined by AND', () => {
    expect(toPrefixQuery('Cof  Terrace')).toBe('cof:* & terrace:*');
  });

  it('When the text carries tsquery operators or SQL, then only letters and digits survive', () => {
    expect(toPrefixQuery("a' | b & !c:* <-> (d); DROP TABLE x --")).toBe(
      'a:* & b:* & c:* & d:* & drop:* & table:* & x:*',
    );
  });

  it('When the text is in another script, then its letters are kept', () => {
    expect(toPrefixQuery('café ünïcode 東京')).toBe('café:* & ünïcode:* & 東京:*');
  });

  it('When the text has no letter or digit, then there is no query and the parameter is invalid', () => {
    expect(toPrefixQuery('!!! ---')).toBeNull();
    expect(searchParam.safeParse('!!!').success).toBe(false);
  });

  it('When the text is empty or over 200 characters, then the parameter is invalid', () => {
    expect(searchParam.safeParse('').success).toBe(false);
    expect(searchParam.safeParse('a'.repeat(201)).success).toBe(false);
    expect(searchParam.safeParse('a'.repeat(200)).success).toBe(true);
  });
});
