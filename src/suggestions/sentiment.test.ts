import { describe, expect, it } from 'vitest';
import { analyzeSentiment } from './sentiment.js';
import { detectLanguage } from './language.js';

const scored = (text: string) => analyzeSentiment(text, detectLanguage(text));

describe('analyzeSentiment', () => {
  it('When English praise is scored, then it is positive by the English lexicon, within [-1, 1]', () => {
    const result = analyzeSentiment('I love the new menu, it is excellent and amazing', 'en');
    expect(result).toMatchObject({ sentiment: 'positive', lexicon: 'en' });
    expect(result.score).toBeGreaterThan(0);
    expect(analyzeSentiment('superb', 'en').score).toBeLessThanOrEqual(1);
    expect(analyzeSentiment('bastard', 'en').score).toBeGreaterThanOrEqual(-1);
  });

  it('When a text has no rated word, then it is neutral, 0, scored by its lexicon', () => {
    expect(analyzeSentiment('Add a door on the north side', 'en')).toEqual({
      sentiment: 'neutral',
      score: 0,
      lexicon: 'en',
    });
  });

  it('When English complaints say "not working", "far too" and "again", then they are negative', () => {
    expect(scored('the terrace gets far too hot')).toMatchObject({ sentiment: 'negative', lexicon: 'en' });
    expect(scored('the coffee machine is not working again')).toMatchObject({ sentiment: 'negative', lexicon: 'en' });
    expect(analyzeSentiment("the wifi isn't good", 'en').sentiment).toBe('negative');
  });

  it('When German, French and Spanish are scored, then their own lexicons score them, negations included', () => {
    expect(scored('Das Essen war kalt und der Service schrecklich langsam.')).toMatchObject({
      sentiment: 'negative',
      lexicon: 'de',
    });
    expect(scored('La terrasse est magnifique, merci pour le nouveau menu !')).toMatchObject({
      sentiment: 'positive',
      lexicon: 'fr',
    });
    expect(analyzeSentiment('Die Kaffeemaschine funktioniert schon wieder nicht', 'de').sentiment).toBe('negative');
    expect(analyzeSentiment('Im Sommer ist es auf der Terrasse viel zu heiß', 'de').sentiment).toBe('negative');
    expect(analyzeSentiment('Le café n’est pas bon', 'fr').sentiment).toBe('negative');
    expect(analyzeSentiment('La salle est trop chaude le soir', 'fr').sentiment).toBe('negative');
    expect(analyzeSentiment('La máquina de café no funciona', 'es').sentiment).toBe('negative');
    expect(analyzeSentiment('Muy buena comida, gracias', 'es').sentiment).toBe('positive');
  });

  it('When the language has no lexicon, or none was detected, then it is not scored: neutral, 0, lexicon null', () => {
    expect(analyzeSentiment('Il caffè era freddo e il servizio terribile', 'it')).toEqual({
      sentiment: 'neutral',
      score: 0,
      lexicon: null,
    });
    expect(analyzeSentiment('ok', null)).toEqual({ sentiment: 'neutral', score: 0, lexicon: null });
  });
});

describe('detectLanguage', () => {
  it('When short feedback is detected, then its ISO 639-1 language comes out; too short to be sure, null', () => {
    expect(detectLanguage('Das Essen war kalt und der Service schrecklich langsam.')).toBe('de');
    expect(detectLanguage('La terrasse est magnifique, merci pour le nouveau menu !')).toBe('fr');
    expect(detectLanguage('the terrace gets far too hot')).toBe('en');
    expect(detectLanguage('Muy buena comida')).toBe('es');
    expect(detectLanguage('ok')).toBeNull();
  });
});
