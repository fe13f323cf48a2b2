import { readdirSync, readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';

/**
 * The words people read, by key, in ICU message syntax (`"validation.required": "{label} is
 * required."`): one catalogue per language in locales/, English the one every key has. A page or an
 * email picks the words in its reader's language; a service raises codes and never words them.
 */
export type Catalogue = Readonly<Record<string, string>>;

/** Values a message takes: `{label}`, `{max, plural, ...}`, `{when, date, medium}`. */
export type MessageValues = Record<string, string | number | Date>;

/** The language every key has, and what a reader with no known language gets. */
export const DEFAULT_LOCALE = 'en';

/**
 * The languages customers read (the public page, its follow links, their emails): each has a
 * complete catalogue of those words (src/shared/catalogues.test.ts), and a business's
 * `default_language` is one of them.
 */
export const CUSTOMER_LANGUAGES = ['ar', 'de', 'en', 'es', 'fr', 'it', 'ja', 'nl', 'pl', 'pt'] as const;
export type CustomerLanguage = (typeof CUSTOMER_LANGUAGES)[number];

const LOCALES = new URL('../../locales/', import.meta.url);

/** The languages there are catalogues for, by file name (`en`). */
export const LOCALE_NAMES = readdirSync(LOCALES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.replace(/\.json$/, ''));

export function readCatalogue(locale: string): Catalogue {
  return JSON.parse(readFileSync(new URL(`${locale}.json`, LOCALES), 'utf8')) as Catalogue;
}

const catalogues = new Map<string, Catalogue>(LOCALE_NAMES.map((name) => [name, readCatalogue(name)]));
const english = catalogues.get(DEFAULT_LOCALE)!;
const compiled = new Map<string, IntlMessageFormat>();

/**
 * The catalogue's language for what a reader asked for (`de-AT` → `de` when there is no `de-AT`);
 * the default when there is none for it. Only names of catalogue files come out: a locale is safe to
 * put in a cache key or an `<html lang>`.
 */
export function resolveLocale(wanted: string | null | undefined): string {
  if (!wanted) return DEFAULT_LOCALE;
  const exact = LOCALE_NAMES.find((name) => name.toLowerCase() === wanted.toLowerCase());
  if (exact) return exact;
  const language = wanted.split(/[-_]/)[0]!.toLowerCase();
  return LOCALE_NAMES.find((name) => name.toLowerCase() === language) ?? DEFAULT_LOCALE;
}

/** Whether English has words for `key`. */
export const hasMessage = (key: string): boolean => Object.hasOwn(english, key);

/**
 * The words of `key` in `locale` with its values (a language without the key falls back to English);
 * a key English lacks is a mistake, and throws. Numbers, plurals and dates in a message are formatted
 * by `Intl` for that locale.
 */
export function t(key: string, values?: MessageValues, locale: string = DEFAULT_LOCALE): string {
  const language = resolveLocale(locale);
  const cacheKey = `${language}\u0000${key}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    const own = catalogues.get(language)?.[key];
    const text = own ?? english[key];
    if (text === undefined) throw new Error(`locales/${DEFAULT_LOCALE}.json has no message ${key}`);
    format = new IntlMessageFormat(text, own === undefined ? DEFAULT_LOCALE : language, undefined, {
      ignoreTag: true,
    });
    compiled.set(cacheKey, format);
  }
  return String(format.format(values));
}

/** A reader's words and formats: what a page or an email is given to speak in one language. */
export interface Messages {
  /** The catalogue's name: `<html lang>`, a cache key's part, the follower's stored language. */
  locale: string;
  t: (key: string, values?: MessageValues) => string;
  /** A number as the reader writes it (`1,234` in English). */
  number: (value: number) => string;
  /** A day as the reader writes it, in UTC (`Nov 27, 2026`). */
  date: (value: Date, options?: Intl.DateTimeFormatOptions) => string;
}

const kept = new Map<string, Messages>();

/** The words and formats of `locale` (resolved: an unknown one gets the default's). */
export function messagesFor(locale: string | null | undefined = DEFAULT_LOCALE): Messages {
  const language = resolveLocale(locale);
  let messages = kept.get(language);
  if (!messages) {
    const numbers = new Intl.NumberFormat(language);
    messages = {
      locale: language,
      t: (key, values) => t(key, values, language),
      number: (value) => numbers.format(value),
      date: (value, options = { dateStyle: 'medium' }) =>
        new Intl.DateTimeFormat(language, { timeZone: 'UTC', ...options }).format(value),
    };
    kept.set(language, messages);
  }
  return messages;
}
