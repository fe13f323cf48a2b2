import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConfigDocs } from '../../scripts/config-docs.js';
import { loadConfig } from '../../src/config/config.js';

const root = new URL('../../', import.meta.url);
const committed = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('The configuration docs', () => {
  it('When the committed tables and .env.example are compared with the schema, then they agree (npm run docs:config writes them)', async () => {
    const rendered = await renderConfigDocs(root);
    expect(Object.keys(rendered).length).toBeGreaterThan(0);
    for (const [path, text] of Object.entries(rendered)) expect(committed(path), path).toBe(text);
  });

  it('When .env.example is the environment, then every value is the default', () => {
    const env = Object.fromEntries(
      committed('.env.example')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });
});
