import type { Sentiment as SentimentLabel } from '../shared/schemas.js';
import {
  AGAIN,
  DE_TOO_LEADS,
  EXCESSIVE_DE,
  LEXICON_LANGUAGES,
  LEXICONS,
  NEGATORS,
  TOO,
  type LexiconLanguage,
} from './sentiment.lexicons.js';

/** AFINN rates each word from -5 to +5. */
const AFINN_MAX = 5;
/** A negation reaches this many words ahead ("not very good"). */
const NEGATION_REACH = 3;
/** What a "too …" complaint weighs. */
const TOO_WEIGHT = -2;
/** The longest phrase a lexicon holds that is matched as one ("a volé", "can't stand"). */
const PHRASE_MAX = 3;

export interface SentimentResult {
  sentiment: SentimentLabel;
  /** In [-1, 1]: the summed ratings per word divided by 5, rounded to 4 decimals; 0 when not scored. */
  score: number;
  /** The language whose lexicon scored the text, or null when none could (then `neutral`, 0). */
  lexicon: LexiconLanguage | null;
}

const hasLexicon = (language: string | null | undefined): language is LexiconLanguage =>
  (LEXICON_LANGUAGES as readonly string[]).includes(language ?? '');

/** Lower-cased words; an elision or a contraction splits ("n'est" → n, est; "isn't" → is, not). */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) {
    const contraction = /^(\p{L}+)n['’]t$/u.exec(word);
    if (contraction) words.push(contraction[1]!, 'not');
    else words.push(...word.split(/['’]/));
  }
  return words;
}

/**
 * Lexicon sentiment in the text's language (docs/decisions.md "Sentiment per language"): AFINN
 * ratings of its words and phrases, turned around after a negation ("not working", "kein guter",
 * "pas bon", "no funciona"), a "too …" counted as a complaint ("far too hot", "zu heiß", "trop
 * chaud"), and "again" weighing one more point on a complaint. A language with no lexicon is not
 * guessed at: `neutral`, 0, and `lexicon` null say so.
 */
export function analyzeSentiment(content: string, language: string | null): SentimentResult {
  if (!hasLexicon(language)) return { sentiment: 'neutral', score: 0, lexicon: null };
  const lexicon = LEXICONS[language];
  const words = wordsOf(content);
  let sum = 0;
  let negatedUntil = -1;
  let again = false;
  /** The last rated word, for a German negation after its verb ("funktioniert … nicht"). */
  let last: { at: number; rating: number; negated: boolean } | null = null;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (NEGATORS[language].has(word)) {
      if (language === 'de' && last && !last.negated && i - last.at <= NEGATION_REACH) {
        sum -= 2 * last.rating;
        last.negated = true;
      }
      negatedUntil = i + NEGATION_REACH;
      continue;
    }
    if (AGAIN[language].has(word)) again = true;
    const next = words[i + 1];
    if (next && TOO[language].has(word)) {
      const complaint = language !== 'de' || EXCESSIVE_DE.has(next) || DE_TOO_LEADS.has(words[i - 1] ?? '');
      if (complaint) {
        sum += TOO_WEIGHT;
        i += 1;
        continue;
      }
    }
    let rating: number | undefined;
    let length = 1;
    for (let n = Math.min(PHRASE_MAX, words.length - i); n >= 1 && rating === undefined; n--) {
      rating = lexicon[words.slice(i, i + n).join(' ')];
      length = n;
    }
    if (rating === undefined) continue;
    const negated = i <= negatedUntil;
    sum += negated ? -rating : rating;
    last = { at: i + length - 1, rating: negated ? -rating : rating, negated };
    i += length - 1;
  }
  if (again && sum < 0) sum -= 1;
  const comparative = words.length === 0 ? 0 : sum / words.length;
  const score = Math.max(-1, Math.min(1, comparative / AFINN_MAX));
  const label: SentimentLabel = sum > 0 ? 'positive' : sum < 0 ? 'negative' : 'neutral';
  return { sentiment: label, score: Math.round(score * 10_000) / 10_000, lexicon: language };
}
