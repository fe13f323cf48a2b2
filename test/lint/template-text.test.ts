import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Text a reader sees comes from the catalogue (locales/*.json), never from a template: this reads every
 * template under web/views and finds the English written into it: text between tags, the words of
 * `aria-label`, `placeholder`, `title` and `alt`, and the labels and hints handed to an include
 * (`label: 'Email'`). What an `<%= %>` tag prints is the catalogue's (or the data's) and is skipped.
 */
const VIEWS = new URL('../../web/views/', import.meta.url).pathname;

/**
 * Templates whose words have not all moved into the catalogue yet, with how many literals each still
 * has: the count may only go down (lower it here when it does); a template not listed must have none.
 * Empty: every template's words are the catalogue's.
 */
const NOT_YET: Record<string, number> = {};

const LETTER = /[A-Za-z]/;

/** The literal English of one template, each as `kind: text`. */
export function literalsOf(template: string): string[] {
  const found: string[] = [];
  const code = template.match(/<%[\s\S]*?%>/g) ?? [];
  for (const block of code) {
    for (const match of block.matchAll(/\b(label|hint|placeholder|title|heading|text|summary)\s*:\s*'([^']*)'/g)) {
      if (LETTER.test(match[2]!)) found.push(`argument: ${match[0]}`);
    }
  }
  // Words an output tag prints from a literal of its own (`it.leaving ? 'Leave the business' : ...`);
  // a catalogue key (`t('app.team.leave')`) has no space.
  for (const output of template.match(/<%[=~][\s\S]*?%>/g) ?? []) {
    for (const match of output.matchAll(/'([^']*)'/g)) {
      if (LETTER.test(match[1]!) && /\S\s+\S/.test(match[1]!)) found.push(`output: ${match[0]}`);
    }
  }
  const markup = template.replace(/<%[\s\S]*?%>/g, '\uE000').replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '');
  for (const match of markup.matchAll(/\b(aria-label|placeholder|title|alt)="([^"\uE000]*)"/g)) {
    if (LETTER.test(match[2]!)) found.push(`attribute: ${match[0]}`);
  }
  for (const between of markup.replace(/<[^>]*>/g, '\uE001').split('\uE001')) {
    for (const part of between.split('\uE000')) {
      const text = part.trim();
      if (LETTER.test(text)) found.push(`text: ${text.replace(/\s+/g, ' ').slice(0, 80)}`);
    }
  }
  return found;
}

const templates = (readdirSync(VIEWS, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.eta'))
  .map((file) => file.split('\\').join('/'))
  .sort();

describe('the words of the templates', () => {
  it('When a template writes an English word of its own, then the scan finds it, in text, attributes and include labels', () => {
    const template = [
      "<h1><%= it.t('app.title') %></h1>",
      '<p>Back to sign in</p>',
      '<button aria-label="Close"><%= it.t("x") %></button>',
      "<%~ include('field', { name: 'email', label: 'Email', value: it.values.email }) %>",
      "<%~ include('field', { name: 'password', label: it.t('app.field.password') }) %>",
      '<script>const label = "not read";</script>',
      '<p><%= it.count %> · <%= it.when %></p>',
      "<button><%= it.leaving ? 'Leave the business' : it.t('app.team.remove.submit') %></button>",
    ].join('\n');
    expect(literalsOf(template)).toEqual([
      "argument: label: 'Email'",
      "output: 'Leave the business'",
      'attribute: aria-label="Close"',
      'text: Back to sign in',
    ]);
  });

  it.each(templates)('When %s is read, then the words a reader sees are all the catalogue’s', (file) => {
    const literals = literalsOf(readFileSync(join(VIEWS, file), 'utf8'));
    const allowed = NOT_YET[file] ?? 0;
    expect(literals.length, literals.join('\n')).toBeLessThanOrEqual(allowed);
  });

  it('When a template listed as not yet done has fewer literals left, then its count here is lowered to match', () => {
    const stale = Object.entries(NOT_YET)
      .map(([file, count]) => ({ file, count, now: literalsOf(readFileSync(join(VIEWS, file), 'utf8')).length }))
      .filter(({ count, now }) => now !== count);
    expect(stale).toEqual([]);
  });
});
