import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The README is for a newcomer: short, and every file it links to is there. */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('The README', () => {
  it('When read, then it is at most 250 lines', () => {
    expect(README.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('When it links to a file of the repository, then the file exists', () => {
    const targets = [...README.matchAll(/\]\(((?!https?:|#)[^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((target) => !existsSync(new URL(`../../${target}`, import.meta.url)))).toEqual([]);
  });
});
