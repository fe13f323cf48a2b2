import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_LANGUAGES, LOCALE_NAMES, messagesFor, readCatalogue } from './messages.js';

/**
 * The words a customer reads (the public page and its error, budget and follow-link pages, the
 * roadmap and changelog pages, and every email a follower gets): complete in every language the page
 * offers. The dashboard's frame (`app.`) is complete in English and German; a team member reading
 * another language gets English for the rest of the dashboard.
 */
const CUSTOMER_PREFIXES = [
  'page.',
  'mail.',
  'changelog.page.',
  'changelog.feed.',
  'roadmap.page.',
  'roadmap.column.',
  'roadmap.card.',
  'roadmap.vote.',
  'similar.',
];
const DASHBOARD_COMPLETE = ['en', 'de'];

const english = readCatalogue('en');
/** Complete in English and German only: the dashboard, and `mail.staff.` (invites, resets: the team's, not customers'). */
const DASHBOARD_PREFIXES = ['app.', 'mail.staff.'];
const isDashboard = (key: string) => DASHBOARD_PREFIXES.some((prefix) => key.startsWith(prefix));
const customerKeys = Object.keys(english).filter(
  (key) => !isDashboard(key) && CUSTOMER_PREFIXES.some((prefix) => key.startsWith(prefix)),
);
const dashboardKeys = Object.keys(english).filter(isDashboard);

/** Every argument a message names (`{business}`, `{count, plural, ...}`), sorted. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      argumentsOf(element.children, into);
      continue;
    }
    into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
  }
  return into;
}

/** The plurals of a message whose cases miss a category the language's plural rules use. */
function missingPlurals(elements: MessageFormatElement[], locale: string): string[] {
  const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const missing: string[] = [];
  for (const element of elements) {
    if (element.type === TYPE.plural) {
      for (const category of needed) if (!element.options[category]) missing.push(`${element.value}: ${category}`);
      for (const option of Object.values(element.options)) missing.push(...missingPlurals(option.value, locale));
    } else if (element.type === TYPE.select) {
      for (const option of Object.values(element.options)) missing.push(...missingPlurals(option.value, locale));
    }
  }
  return missing;
}

const sorted = (values: Iterable<string>) => [...values].sort();

describe('the customer languages (locales/<lang>.json)', () => {
  it('When the catalogues are listed, then there is one for each language the page offers, and no other', () => {
    expect(sorted(LOCALE_NAMES)).toEqual(sorted(CUSTOMER_LANGUAGES));
  });

  it('When the customer-facing keys are counted, then the page, its errors, the follow pages and every email are among them', () => {
    for (const key of ['page.title', 'page.error.429.heading', 'page.error.retry_after', 'page.confirm.button'])
      expect(customerKeys).toContain(key);
    for (const key of ['mail.follow.confirm.subject', 'mail.follow.notice.news', 'mail.changelog.intro'])
      expect(customerKeys).toContain(key);
    expect(customerKeys.length).toBeGreaterThan(140);
    expect(customerKeys).not.toContain('mail.staff.invite.subject');
    expect(dashboardKeys).toContain('mail.staff.invite.subject');
  });

  it.each(CUSTOMER_LANGUAGES)(
    'When %s is read, then it has every customer-facing key and no key English lacks',
    (locale) => {
      const catalogue = readCatalogue(locale);
      expect(customerKeys.filter((key) => !Object.hasOwn(catalogue, key))).toEqual([]);
      expect(Object.keys(catalogue).filter((key) => !Object.hasOwn(english, key))).toEqual([]);
    },
  );

  it.each(DASHBOARD_COMPLETE)(
    'When %s is read, then the dashboard frame (app.*) and the staff emails (mail.staff.*) are complete',
    (locale) => {
      const catalogue = readCatalogue(locale);
      expect(dashboardKeys.filter((key) => !Object.hasOwn(catalogue, key))).toEqual([]);
    },
  );

  it.each(CUSTOMER_LANGUAGES)(
    'When %s is read, then each message parses, names the arguments English names, and its plurals have every category of the language',
    (locale) => {
      const problems: string[] = [];
      for (const [key, text] of Object.entries(readCatalogue(locale))) {
        try {
          const elements = parse(text, { ignoreTag: true });
          const wanted = sorted(argumentsOf(parse(english[key]!, { ignoreTag: true })));
          if (sorted(argumentsOf(elements)).join() !== wanted.join()) problems.push(`${key}: arguments`);
          problems.push(...missingPlurals(elements, locale).map((miss) => `${key}: plural ${miss}`));
        } catch (err) {
          problems.push(`${key}: ${(err as Error).message}`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it('When a plural misses a category of its language, then the check names it', () => {
    const polish = parse('{n, plural, one {# dzień} other {# dni}}');
    expect(missingPlurals(polish, 'pl')).toEqual(['n: few', 'n: many']);
    expect(missingPlurals(parse('{n, plural, other {#日}}'), 'ja')).toEqual([]);
  });

  it('When a plural is formatted in Polish, Arabic and Japanese, then each number takes its own form', () => {
    const retry = (locale: string, seconds: number) => messagesFor(locale).t('page.error.retry_after', { seconds });
    expect(retry('pl', 1)).toContain('1 sekundę');
    expect(retry('pl', 3)).toContain('3 sekundy');
    expect(retry('pl', 5)).toContain('5 sekund');
    expect(retry('ar', 2)).toContain('ثانيتين');
    expect(retry('ar', 3)).toContain('ثوانٍ');
    expect(retry('ja', 5)).toContain('5秒');
  });
});
