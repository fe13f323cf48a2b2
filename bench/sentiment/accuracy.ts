/**
 * Sentiment accuracy on the hand-labelled set (labelled.ts), before and after issue 43: "before" is
 * the `sentiment` package's English AFINN-165 on every text (what the service did), "after" the
 * service's analyzeSentiment in the detected language. Also counts the detected languages.
 * Run: npx tsx bench/sentiment/accuracy.ts
 */
import Sentiment from 'sentiment';
import { analyzeSentiment } from '../../src/suggestions/sentiment.js';
import { detectLanguage } from '../../src/suggestions/language.js';
import { LABELLED, type Label } from './labelled.js';

const before = new Sentiment();
const labelOf = (score: number): Label => (score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral');
const rows: Record<string, { n: number; before: number; after: number; detected: number }> = {};
for (const { lang, text, label } of LABELLED) {
  const row = (rows[lang] ??= { n: 0, before: 0, after: 0, detected: 0 });
  const language = detectLanguage(text);
  row.n += 1;
  if (language === lang) row.detected += 1;
  if (labelOf(before.analyze(text).score) === label) row.before += 1;
  if (analyzeSentiment(text, language).sentiment === label) row.after += 1;
}
console.log('lang  n  detected  before  after');
for (const [lang, r] of Object.entries(rows))
  console.log(`${lang}   ${r.n}  ${r.detected}        ${r.before}       ${r.after}`);
