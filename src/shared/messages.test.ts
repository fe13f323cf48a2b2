import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LOCALE_NAMES, messagesFor, readCatalogue, resolveLocale, t } from './messages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The code and templates that show words: src/ (not its tests) and web/views/. */
function sources(): { path: string; text: string }[] {
  const files = [
    ...readdirSync(`${ROOT}src`, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => `src/${name}`),
    ...readdirSync(`${ROOT}web/views`, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.eta'))
      .map((name) => `web/views/${name}`),
  ];
  return files.map((path) => ({ path, text: readFileSync(`${ROOT}${path}`, 'utf8') }));
}

/**
 * The keys a source asks for by name: `t('page.title')`, `it.t("app.nav.home", ...)`; and the
 * prefixes of those it builds (`t(`page.status.${status}`)`), which some key must start with.
 */
function keysUsed(text: string): { keys: string[]; prefixes: string[] } {
  const keys = [...text.matchAll(/\bt\(\s*(['"])([\w.-]+)\1/g)].map((m) => m[2]!);
  const prefixes = [...text.matchAll(/\bt\(\s*`([\w.-]+)\$\{/g)].map((m) => m[1]!);
  return { keys, prefixes };
}

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

  it('When src/ and web/views/ ask for a key by name, then English has it; a key built from a prefix has one that starts so', () => {
    const english = readCatalogue('en');
    const names = Object.keys(english);
    const missing: string[] = [];
    let found = 0;
    for (const { path, text } of sources()) {
      const { keys, prefixes } = keysUsed(text);
      found += keys.length;
      for (const key of keys) if (!Object.hasOwn(english, key)) missing.push(`${path}: ${key}`);
      for (const prefix of prefixes)
        if (!names.some((name) => name.startsWith(prefix))) missing.push(`${path}: ${prefix}…`);
    }
    expect(missing).toEqual([]);
    // The scan finds what it looks for: the public page's, the emails' and the dashboard frame's keys.
    expect(found).toBeGreaterThan(100);
  });

  it('When the scan reads a source, then it finds keys in code and templates, and prefixes of built ones', () => {
    const text = 't(\'page.title\', { business }) <%= it.t("app.nav.home") %> t(`page.status.${s}`) format(x)';
    expect(keysUsed(text)).toEqual({ keys: ['page.title', 'app.nav.home'], prefixes: ['page.status.'] });
  });

  it('When a locale is asked for, then a catalogue name comes back: its own, its language, else English', () => {
    expect(resolveLocale('en')).toBe('en');
    expect(resolveLocale('EN-gb')).toBe('en');
    expect(resolveLocale('xx')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
    expect(resolveLocale('<script>')).toBe('en');
  });

  it('When words are asked for in a locale, then its numbers, dates and plurals are formatted by Intl', () => {
    const english = messagesFor('en');
    expect(english.locale).toBe('en');
    expect(english.number(12345)).toBe('12,345');
    expect(english.date(new Date('2026-11-27T23:59:00Z'))).toBe('Nov 27, 2026');
    expect(english.t('page.error.retry_after', { seconds: 1 })).toBe('Please try again in 1 second.');
    expect(t('page.form.error.content', { max: 2000 }, 'en')).toBe(
      'Please write your feedback: up to 2,000 characters.',
    );
    expect(t('page.title', { business: 'Café Ana' }, 'xx')).toBe('Feedback for Café Ana');
  });

  it('When a key is missing from the catalogue, then asking for it throws rather than showing the key', () => {
    expect(() => t('no.such.key')).toThrow(/no message no\.such\.key/);
  });
});
