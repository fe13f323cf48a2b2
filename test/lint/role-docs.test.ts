import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRoleDocs, roleTable } from '../../scripts/role-docs.js';

const root = new URL('../../', import.meta.url);

describe('The role table of docs/decisions.md', () => {
  it('When compared with authorize() and the routes, then it agrees (npm run docs:roles writes it)', async () => {
    for (const [path, text] of Object.entries(await renderRoleDocs(root))) {
      expect(readFileSync(new URL(path, root), 'utf8'), `${path}: run npm run docs:roles`).toBe(text);
    }
  });

  it('When generated, then the actions every resource asks for are rows, webhooks and followers included', () => {
    const table = roleTable();
    const line = (action: string) => table.split('\n').find((row) => row.startsWith(`| \`${action}\` |`));
    expect(line('manage_webhooks')).toMatch(/\| Webhooks \| ✓ \| ✓ \| {2}\| {2}\| {2}\|$/);
    expect(line('read_followers')).toMatch(/\| ✓ \| ✓ \| {2}\| {2}\| {2}\|$/);
  });
});
