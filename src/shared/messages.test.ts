import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LOCALE_NAMES, readCatalogue, t } from './messages.js';

/** Every message of a catalogue that ICU message syntax refuses, with why. */
function unparsable(catalogue: Record<string, string>): string[] {
  return Object.entries(catalogue).flatMap(([key, text]) => {
    try {
      new IntlMessageFormat(text, 'en', undefined, { ignoreTag: true });
      return [];
    } catch (err) {
      return [`${key}: ${(err as Error).message}`];
    }
  });
}

describe('the message catalogues (locales/*.json)', () => {
  it.each(LOCALE_NAMES)('When %s is read, then every message parses as ICU message syntax', (locale) => {
    expect(unparsable(readCatalogue(locale))).toEqual([]);
  });

  it('When a message does not parse, then the check names it', () => {
    expect(unparsable({ 'broken.brace': '{label is required', fine: '{label} is fine.' })).toEqual([
      expect.stringMatching(/^broken\.brace: /),
    ]);
  });

  it('When every other catalogue is read, then it has no key English lacks', () => {
    const english = new Set(Object.keys(readCatalogue('en')));
    for (const locale of LOCALE_NAMES) {
      expect(Object.keys(readCatalogue(locale)).filter((key) => !english.has(key))).toEqual([]);
    }
  });

  it('When a message takes a plural, then the number picks the words', () => {
    expect(t('validation.too_long', { label: 'The name', max: 1 })).toBe('The name must be at most 1 character.');
    expect(t('validation.too_long', { label: 'The name', max: 50 })).toBe('The name must be at most 50 characters.');
  });

  it('When a key is missing from the catalogue, then asking for it throws rather than showing the key', () => {
    expect(() => t('no.such.key')).toThrow(/no message no\.such\.key/);
  });
});
