import { describe, expect, it } from 'vitest';
import { analyzeSentiment } from './sentiment.js';

describe('analyzeSentiment', () => {
  it('When the text praises, then it is positive with a score above 0', () => {
    const result = analyzeSentiment('I love the new menu, it is excellent and amazing');
    expect(result.sentiment).toBe('positive');
    expect(result.score).toBeGreaterThan(0);
  });

  it('When the text complains, then it is negative with a score below 0', () => {
    const result = analyzeSentiment('Terrible service, the app is broken and awful');
    expect(result.sentiment).toBe('negative');
    expect(result.score).toBeLessThan(0);
  });

  it('When the text has no rated words, then it is neutral with score 0', () => {
    expect(analyzeSentiment('Add a door on the north side')).toEqual({ sentiment: 'neutral', score: 0 });
  });

  it('When the text is extreme, then the score stays within [-1, 1]', () => {
    expect(analyzeSentiment('superb').score).toBeLessThanOrEqual(1);
    expect(analyzeSentiment('bastard').score).toBeGreaterThanOrEqual(-1);
  });
});
