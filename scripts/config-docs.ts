import { readFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { loadConfig, type Config } from '../src/config/config.js';
import { CONFIG_DESCRIPTIONS } from '../src/config/config.descriptions.js';

/**
 * The configuration as the docs show it, made from the schema (src/config/config.ts: names and
 * defaults) and its descriptions (config.descriptions.ts): `npm run docs:config` writes these files,
 * and test/lint/config-docs.test.ts fails when a committed one differs.
 */
type Variable = keyof Config;

/** What a newcomer sets first: the README's short table; every other variable is one link away. */
export const ESSENTIALS: readonly Variable[] = ['PORT', 'DATABASE_URL', 'DATA_DIR', 'PUBLIC_BASE_URL', 'SMTP_URL'];

const VARIABLES = Object.keys(CONFIG_DESCRIPTIONS) as Variable[];
const defaults = loadConfig({});

/** A default as the environment spells it: empty when the variable is unset by default. */
function envValue(name: Variable): string {
  const value = defaults[name];
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * The description with its `docs/<file>.md` mentions as links from `from` (a path from the root): to
 * the file as the reader would find it, or to the anchor alone when it is `from` itself.
 */
function linked(text: string, from: string): string {
  const dir = from.startsWith('docs/') ? '' : 'docs/';
  return text.replace(/\bdocs\/([\w-]+\.md)(#[\w-]+)?/g, (_m, file: string, anchor = '') =>
    `docs/${file}` === from && anchor ? `[below](${anchor})` : `[${dir}${file}](${dir}${file}${anchor})`,
  );
}

function table(names: readonly Variable[], from: string): string {
  const rows = names.map(
    (name) => `| \`${name}\` | ${envValue(name) || '(unset)'} | ${linked(CONFIG_DESCRIPTIONS[name], from)} |`,
  );
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

const MARK = 'config-table';

/** `markdown` with the text between its markers replaced by `content`; throws when a marker is missing. */
function between(markdown: string, file: string, content: string): string {
  const start = `<!-- ${MARK}:start (npm run docs:config writes this table from src/config) -->`;
  const end = `<!-- ${MARK}:end -->`;
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file}: the markers ${start} and ${end} are missing`);
  return `${markdown.slice(0, from + start.length)}\n${content}\n${markdown.slice(to)}`;
}

/** `text` as comment lines of at most about 100 characters. */
function comment(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length < 100) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`# ${word}`);
  }
  return lines;
}

function envExample(): string {
  const lines = [
    '# Every variable the service reads, with its default: empty means unset.',
    '# Written by `npm run docs:config` from src/config/config.ts and config.descriptions.ts: edit those.',
  ];
  for (const name of VARIABLES) lines.push('', ...comment(CONFIG_DESCRIPTIONS[name]), `${name}=${envValue(name)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The files the configuration is written into, by path from `root` (the repository), as they should
 * read: their current text with the tables replaced, formatted as `npm run format` would.
 */
export async function renderConfigDocs(root: URL): Promise<Record<string, string>> {
  const markdown = async (path: string, names: readonly Variable[]) => {
    const file = new URL(path, root).pathname;
    const text = between(readFileSync(file, 'utf8'), path, table(names, path));
    return format(text, { ...(await resolveConfig(file)), filepath: file });
  };
  return {
    'docs/operations.md': await markdown('docs/operations.md', VARIABLES),
    'README.md': await markdown('README.md', ESSENTIALS),
    '.env.example': envExample(),
  };
}
