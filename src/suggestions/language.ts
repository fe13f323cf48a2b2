import { eld } from 'eld/medium';

/**
 * The language of a customer's text (ISO 639-1), or null when the detector is not sure (a word or
 * two, an emoji). eld's medium database: measured best on short feedback (bench/language-detect.ts,
 * docs/decisions.md "Detecting the language").
 */
export function detectLanguage(text: string): string | null {
  const result = eld.detect(text);
  return result.language && result.isReliable() ? result.language : null;
}
