import { readFileSync, writeFileSync } from 'node:fs';
import { renderConfigDocs } from './config-docs.js';

/** `npm run docs:config`: rewrites the configuration tables and .env.example from src/config. */
const root = new URL('..', import.meta.url);
for (const [path, text] of Object.entries(await renderConfigDocs(root))) {
  const file = new URL(path, root);
  if (readFileSync(file, 'utf8') === text) continue;
  writeFileSync(file, text);
  console.log(`wrote ${path}`);
}
