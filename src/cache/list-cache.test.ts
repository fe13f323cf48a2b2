import { describe, expect, it } from 'vitest';
import { ListCache } from './list-cache.js';

const body = (size: number, fill = 'x') => Buffer.from(fill.repeat(size));

describe('ListCache', () => {
  it('serves an entry only for the change number it was made at', () => {
    const cache = new ListCache(100);
    cache.set('k', 3, body(10));
    expect(cache.get('k', 3)?.toString()).toBe('x'.repeat(10));
    expect(cache.get('k', 4)).toBeUndefined();
    expect(cache.get('other', 3)).toBeUndefined();
  });

  it('never lets an older change number replace a newer entry', () => {
    const cache = new ListCache(100);
    cache.set('k', 5, body(10, 'n'));
    cache.set('k', 4, body(10, 'o'));
    expect(cache.get('k', 5)?.toString()).toBe('n'.repeat(10));
    cache.set('k', 6, body(10, 'm'));
    expect(cache.get('k', 6)?.toString()).toBe('m'.repeat(10));
    expect(cache.bytes).toBe(10);
  });

  it('keeps its bodies within the byte budget, dropping the least recently used first', () => {
    const cache = new ListCache(30);
    cache.set('a', 1, body(10));
    cache.set('b', 1, body(10));
    cache.set('c', 1, body(10));
    cache.get('a', 1); // a is now the most recent
    cache.set('d', 1, body(10));
    expect(cache.get('b', 1)).toBeUndefined();
    expect([cache.get('a', 1), cache.get('c', 1), cache.get('d', 1)].every(Boolean)).toBe(true);
    expect(cache.bytes).toBe(30);
    cache.set('huge', 1, body(31));
    expect(cache.get('huge', 1)).toBeUndefined();
    expect(cache.size).toBe(3);
  });

  it('keeps nothing with a budget of 0', () => {
    const cache = new ListCache(0);
    cache.set('k', 1, body(1));
    expect(cache.size).toBe(0);
  });
});
