import { readdirSync, readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';

/**
 * The words people read, by key, in ICU message syntax (`"validation.required": "{label} is
 * required."`): one catalogue per language in locales/, English the one every key has. A page or an
 * email picks the words; a service raises codes and never words them for a page.
 */
export type Catalogue = Readonly<Record<string, string>>;

/** Values a message takes: `{label}`, `{max, plural, ...}`. */
export type MessageValues = Record<string, string | number>;

const LOCALES = new URL('../../locales/', import.meta.url);

/** The languages there are catalogues for, by file name (`en`). */
export const LOCALE_NAMES = readdirSync(LOCALES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.replace(/\.json$/, ''));

export function readCatalogue(locale: string): Catalogue {
  return JSON.parse(readFileSync(new URL(`${locale}.json`, LOCALES), 'utf8')) as Catalogue;
}

const english = readCatalogue('en');
const compiled = new Map<string, IntlMessageFormat>();

/** Whether English has words for `key`. */
export const hasMessage = (key: string): boolean => Object.hasOwn(english, key);

/** The English words of `key` with its values; a key the catalogue lacks is a mistake, and throws. */
export function t(key: string, values?: MessageValues): string {
  let format = compiled.get(key);
  if (!format) {
    const text = english[key];
    if (text === undefined) throw new Error(`locales/en.json has no message ${key}`);
    format = new IntlMessageFormat(text, 'en', undefined, { ignoreTag: true });
    compiled.set(key, format);
  }
  return String(format.format(values));
}
