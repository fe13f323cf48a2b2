import { describe, expect, it } from 'vitest';
import { KEY_PREFIX, digestKey, displayPrefix, generateApiKey, isWellFormedKey } from './key-format.js';

describe('API key format', () => {
  it('When a key is generated, then it is fbk_ + 38 base62 characters and passes its own checksum', () => {
    const { key, prefix, digest } = generateApiKey();
    expect(key).toMatch(/^fbk_[0-9A-Za-z]{38}$/);
    expect(isWellFormedKey(key)).toBe(true);
    expect(prefix).toBe(key.slice(0, 12));
    expect(digest.equals(digestKey(key))).toBe(true);
    expect(displayPrefix(key).startsWith(KEY_PREFIX)).toBe(true);
  });

  it('When keys are generated repeatedly, then they never repeat', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey().key));
    expect(keys.size).toBe(500);
  });

  it('When one character of the secret is changed, then the checksum rejects the key', () => {
    const { key } = generateApiKey();
    const position = 10;
    const swapped = key[position] === 'a' ? 'b' : 'a';
    const typo = key.slice(0, position) + swapped + key.slice(position + 1);
    expect(isWellFormedKey(typo)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['wrong prefix', 'abc_' + 'a'.repeat(38)],
    ['too short', 'fbk_abc'],
    ['illegal characters', 'fbk_' + '-'.repeat(38)],
    ['too long', generateApiKey().key + 'x'],
  ])('When the key is %s, then it is not well formed', (_label, candidate) => {
    expect(isWellFormedKey(candidate)).toBe(false);
  });
});
