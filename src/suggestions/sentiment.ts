import Sentiment from 'sentiment';
import type { Sentiment as SentimentLabel } from '../shared/schemas.js';

const analyzer = new Sentiment();
/** AFINN-165 rates each word from -5 to +5. */
const AFINN_MAX = 5;

export interface SentimentResult {
  sentiment: SentimentLabel;
  /** In [-1, 1]: the average AFINN rating per word divided by 5, rounded to 4 decimals. */
  score: number;
}

/**
 * Lexicon-based sentiment (AFINN-165 through the `sentiment` package): the label follows the sign
 * of the summed word ratings, the score is the per-word average scaled to [-1, 1].
 */
export function analyzeSentiment(content: string): SentimentResult {
  const result = analyzer.analyze(content);
  const score = Math.max(-1, Math.min(1, result.comparative / AFINN_MAX));
  const label: SentimentLabel = result.score > 0 ? 'positive' : result.score < 0 ? 'negative' : 'neutral';
  return { sentiment: label, score: Math.round(score * 10_000) / 10_000 };
}
