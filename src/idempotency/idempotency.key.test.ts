import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintOf, parseIdempotencyKey, scopeOf } from './idempotency.key.js';

describe('Idempotency-Key parsing', () => {
  it('When the key is bare or a structured-field string, then the same key comes out, escapes undone', () => {
    expect(parseIdempotencyKey('abc-123')).toBe('abc-123');
    expect(parseIdempotencyKey('"abc-123"')).toBe('abc-123');
    expect(parseIdempotencyKey('"a\\"b\\\\c"')).toBe('a"b\\c');
    expect(parseIdempotencyKey('with inner space')).toBe('with inner space');
    expect(parseIdempotencyKey(`"${'\\"'.repeat(255)}"`)).toBe('"'.repeat(255));
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  it.each(['', 'k'.repeat(256), 'tab\there', 'clé', '"open', '"bad \\x escape"', '"a"b"', `"${'k'.repeat(256)}"`])(
    'When the key is %j, then it is refused',
    (header) => {
      expect(() => parseIdempotencyKey(header)).toThrow(/Idempotency-Key must be/);
    },
  );
});

describe('fingerprints', () => {
  it('When objects list their fields in another order, then their canonical JSON is the same; arrays keep theirs', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: 1, skipped: undefined })).toBe('{"a":1}');
  });

  it('When the credential, path or key differ, then the scope does; only the body and URL move the fingerprint', () => {
    const request = { credential: 'key:1', method: 'POST', path: '/p', url: '/p', body: { a: 1 }, key: 'k' };
    const scope = scopeOf(request);
    expect(scopeOf({ ...request, credential: 'key:2' }).equals(scope)).toBe(false);
    expect(scopeOf({ ...request, path: '/q' }).equals(scope)).toBe(false);
    expect(scopeOf({ ...request, key: 'k2' }).equals(scope)).toBe(false);
    expect(scopeOf({ ...request, body: { a: 2 } }).equals(scope)).toBe(true);
    expect(fingerprintOf({ ...request, body: { a: 2 } }).equals(fingerprintOf(request))).toBe(false);
    expect(fingerprintOf({ ...request, credential: 'key:2' }).equals(fingerprintOf(request))).toBe(true);
  });
});
