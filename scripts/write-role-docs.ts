import { readFileSync, writeFileSync } from 'node:fs';
import { renderRoleDocs } from './role-docs.js';

/** `npm run docs:roles`: rewrites the role table of docs/decisions.md from authorize() and the routes. */
const root = new URL('..', import.meta.url);
for (const [path, text] of Object.entries(await renderRoleDocs(root))) {
  const file = new URL(path, root);
  if (readFileSync(file, 'utf8') === text) continue;
  writeFileSync(file, text);
  console.log(`wrote ${path}`);
}
