import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/routes.js';

/**
 * The OpenAPI document as committed: a change to a route, a schema or a description shows here, so a
 * refactoring can prove it changed nothing a client sees, and a change that should show is made on
 * purpose. To accept one: UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run test/openapi/snapshot.test.ts,
 * then read the diff of test/openapi/openapi.snapshot.json before committing it.
 */
const SNAPSHOT = new URL('./openapi.snapshot.json', import.meta.url);

describe('The OpenAPI document', () => {
  it('When generated, then it is byte for byte the committed snapshot', () => {
    const generated = `${JSON.stringify(apiDocument(), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI_SNAPSHOT === '1') writeFileSync(SNAPSHOT, generated);
    expect(generated === readFileSync(SNAPSHOT, 'utf8'), 'the document differs from openapi.snapshot.json').toBe(true);
  });
});
