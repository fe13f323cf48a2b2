import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/routes.js';

/**
 * The OpenAPI document as committed: a change to a route, a schema or a description shows here, so a
 * refactoring can prove it changed nothing a client sees, and a change that should show is made on
 * purpose. To accept one: the command in UPDATE, then read the diff of test/openapi/openapi.snapshot.json
 * before committing it.
 */
const SNAPSHOT = new URL('./openapi.snapshot.json', import.meta.url);
const UPDATE = 'UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run test/openapi/snapshot.test.ts';

/** Lines shown on each side of the first difference. */
const CONTEXT = 3;

/**
 * What a failure says: the first lines where `generated` and `committed` part, numbered as in the
 * snapshot, and the command that accepts the change; null when they are the same.
 */
function snapshotDifference(generated: string, committed: string): string | null {
  if (generated === committed) return null;
  const now = generated.split('\n');
  const was = committed.split('\n');
  let first = 0;
  while (first < now.length && first < was.length && now[first] === was[first]) first += 1;
  const from = Math.max(0, first - CONTEXT);
  const numbered = (lines: string[], sign: string) =>
    lines.slice(from, first + CONTEXT + 1).map((line, i) => `${sign} ${String(from + i + 1).padStart(5)} ${line}`);
  return [
    `The OpenAPI document differs from openapi.snapshot.json from line ${first + 1}.`,
    'committed:',
    ...numbered(was, '-'),
    'generated:',
    ...numbered(now, '+'),
    `If the change is meant: ${UPDATE}, then read the snapshot's diff before committing it.`,
  ].join('\n');
}

describe('The OpenAPI document', () => {
  it('When generated, then it is byte for byte the committed snapshot', () => {
    const generated = `${JSON.stringify(apiDocument(), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI_SNAPSHOT === '1') writeFileSync(SNAPSHOT, generated);
    const difference = snapshotDifference(generated, readFileSync(SNAPSHOT, 'utf8'));
    if (difference !== null) expect.fail(difference);
  });

  it('When the document differs, then the failure shows the first differing lines and the command that updates it', () => {
    const committed = ['{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4', '}', ''].join('\n');
    const generated = committed.replace('"c": 3', '"c": 30');
    expect(snapshotDifference(committed, committed)).toBeNull();
    expect(snapshotDifference(generated, committed)).toBe(
      [
        'The OpenAPI document differs from openapi.snapshot.json from line 4.',
        'committed:',
        '-     1 {',
        '-     2   "a": 1,',
        '-     3   "b": 2,',
        '-     4   "c": 3,',
        '-     5   "d": 4',
        '-     6 }',
        '-     7 ',
        'generated:',
        '+     1 {',
        '+     2   "a": 1,',
        '+     3   "b": 2,',
        '+     4   "c": 30,',
        '+     5   "d": 4',
        '+     6 }',
        '+     7 ',
        `If the change is meant: ${UPDATE}, then read the snapshot's diff before committing it.`,
      ].join('\n'),
    );
  });
});
