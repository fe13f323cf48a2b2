/**
 * Which language detector for customers' short texts (issue 43): eld (the one the service uses,
 * src/suggestions/language.ts) against franc-min and tinyld on the hand-labelled feedback set
 * (bench/sentiment/labelled.ts, 56 texts in en, de, fr, es) and on the same texts cut to their first
 * three words, counting a detection right only when it names the text's language (a "not sure" is
 * wrong), with the time per text. The two others are not dependencies: install them anywhere and
 * name the folder:
 *   npm install --prefix /tmp/det franc-min tinyld
 *   DETECTORS_FROM=/tmp/det npx tsx bench/language-detect.ts
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { eld } from 'eld/medium';
import { LABELLED } from './sentiment/labelled.js';

type Detect = (text: string) => string | null;

/** franc answers ISO 639-3; the service stores 639-1. */
const ISO3: Record<string, string> = { eng: 'en', deu: 'de', fra: 'fr', spa: 'es' };

async function others(dir: string | undefined): Promise<Record<string, Detect>> {
  if (!dir) return {};
  const require = createRequire(pathToFileURL(join(dir, 'package.json')));
  const load = async (name: string) =>
    (await import(pathToFileURL(require.resolve(name)).href)) as Record<string, unknown>;
  const franc = (await load('franc-min')).franc as (text: string) => string;
  const tinyld = (await load('tinyld')).detect as (text: string) => string;
  return {
    'franc-min 6': (text) => ISO3[franc(text)] ?? null,
    'tinyld 1': (text) => tinyld(text) || null,
  };
}

const detectors: Record<string, Detect> = {
  'eld medium (used)': (text) => {
    const result = eld.detect(text);
    return result.language && result.isReliable() ? result.language : null;
  },
  ...(await others(process.env.DETECTORS_FROM)),
};
if (Object.keys(detectors).length === 1) console.log('DETECTORS_FROM is not set: eld alone (see the header)');

const firstWords = (text: string) => text.split(/\s+/).slice(0, 3).join(' ');
console.log('detector            | whole texts | first 3 words | µs per text');
for (const [name, detect] of Object.entries(detectors)) {
  for (const { text } of LABELLED) detect(text); // warm
  let whole = 0;
  let short = 0;
  const start = performance.now();
  for (const { lang, text } of LABELLED) {
    if (detect(text) === lang) whole += 1;
    if (detect(firstWords(text)) === lang) short += 1;
  }
  const micros = ((performance.now() - start) * 1000) / (2 * LABELLED.length);
  const n = LABELLED.length;
  console.log(`${name.padEnd(19)} | ${whole}/${n}       | ${short}/${n}         | ${micros.toFixed(0)}`);
}
