import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * CONTRIBUTING's "Layout" is a map of src/ written by hand: this holds it to the folders that exist,
 * so a folder added (or removed) shows in the map too.
 */
const CONTRIBUTING = readFileSync(new URL('../../CONTRIBUTING.md', import.meta.url), 'utf8');
const SRC = new URL('../../src/', import.meta.url);

/** The folders the layout's `src/` block names: each `name/` standing as a word of its own. */
function foldersNamed(contributing: string): string[] {
  const block = /## Layout\s+```\n([\s\S]*?)```/.exec(contributing)?.[1] ?? '';
  const src = block.slice(block.indexOf('src/\n') + 'src/\n'.length, block.search(/^migrations\//m));
  return [...src.matchAll(/(?<![\w./-])([a-z][a-z-]*)\/(?=\s)/g)].map((match) => match[1]!);
}

/** The differences, one line each: folders the layout lacks, and names it gives that src/ lacks. */
function layoutGaps(named: readonly string[], folders: readonly string[]): string[] {
  return [
    ...folders.filter((folder) => !named.includes(folder)).map((folder) => `src/${folder}/ is not in the layout`),
    ...named
      .filter((name) => !folders.includes(name))
      .map((name) => `the layout names src/${name}/, which is not there`),
  ];
}

const folders = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe("CONTRIBUTING's layout", () => {
  it('When compared with src/, then it names every folder and only those', () => {
    expect(folders.length).toBeGreaterThan(20);
    expect(layoutGaps(foldersNamed(CONTRIBUTING), folders)).toEqual([]);
  });

  it('When a folder is added to src/ or one the layout names is gone, then the check says which', () => {
    const layout =
      '## Layout\n\n```\nsrc/\n  main.ts   start\n  db/       the pool\n  gone/     old\nmigrations/ sql\n```\n';
    expect(foldersNamed(layout)).toEqual(['db', 'gone']);
    expect(layoutGaps(foldersNamed(layout), ['db', 'widgets'])).toEqual([
      'src/widgets/ is not in the layout',
      'the layout names src/gone/, which is not there',
    ]);
  });
});
