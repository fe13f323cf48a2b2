import { readFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import type { Action } from '../src/auth/authorize.js';
import { accessFor } from '../src/openapi/access.js';
import { ROUTES } from '../src/routes.js';

/**
 * The role table of docs/decisions.md, made from the route table and authorize() itself (through
 * accessFor, as /docs is): `npm run docs:roles` writes it, and test/lint/role-docs.test.ts fails when
 * the committed one differs. A new action is refused by the type check until it has its words here.
 */
const WHAT: Record<Action, string> = {
  read: 'read anything (lists, items, team, QR images, analytics)',
  comment: 'comment',
  change_status: "change a suggestion's or issue's `status` alone",
  tag_items: "add or remove an item's tags",
  update: 'PATCH a suggestion or issue (`status` and `tags` alone as `change_status`, anything more as `write`)',
  write: 'create and edit suggestions, issues, merges, QR codes, locations; assign; publish; review',
  manage_team: 'invite, cancel an invite',
  manage_owners: 'anything about the owner role: invite, cancel an owner invite, grant, take, remove',
  manage_keys: 'API keys (Settings > Integrations)',
  manage_webhooks: 'webhook endpoints, their secrets and deliveries',
  manage_business: "change the business's settings and tags; change a member's role",
  read_followers: "read a suggestion's followers (their addresses)",
  leave: 'remove a member, or leave (oneself: any role; someone else: as `manage_business`; never the last owner)',
};

const COLUMNS = ['owner', 'admin', 'member', 'write key', 'read key'] as const;

function row(action: Action, tags: readonly string[]): string {
  const { scopes, roles } = accessFor(action);
  const may = (column: (typeof COLUMNS)[number]) => {
    const [name, kind] = column.split(' ');
    return kind === 'key' ? scopes.includes(name as never) : roles.includes(name as never);
  };
  return `| \`${action}\` | ${WHAT[action]} | ${tags.join(', ')} | ${COLUMNS.map((c) => (may(c) ? '✓' : '')).join(' | ')} |`;
}

/** One row per action the business family's routes ask for, in the order the reference first uses it. */
export function roleTable(): string {
  const tags = new Map<Action, Set<string>>();
  for (const route of ROUTES) {
    if (route.guard !== 'business') continue;
    const action = route.action ?? 'read';
    const seen = tags.get(action) ?? new Set<string>();
    tags.set(action, seen.add(route.tag));
  }
  const rows = [...tags].map(([action, seen]) => row(action, [...seen]));
  return [
    `| Action | What | Reference sections | ${COLUMNS.join(' | ')} |`,
    `| --- | --- | --- |${' :-: |'.repeat(5)}`,
    ...rows,
  ].join('\n');
}

const START =
  '<!-- role-table:start (npm run docs:roles writes this table from src/auth/authorize.ts and the routes) -->';
const END = '<!-- role-table:end -->';

/** docs/decisions.md as it should read: the table between its markers replaced, formatted by prettier. */
export async function renderRoleDocs(root: URL): Promise<Record<string, string>> {
  const path = 'docs/decisions.md';
  const file = new URL(path, root).pathname;
  const markdown = readFileSync(file, 'utf8');
  const from = markdown.indexOf(START);
  const to = markdown.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${path}: the markers ${START} and ${END} are missing`);
  const text = `${markdown.slice(0, from + START.length)}\n${roleTable()}\n${markdown.slice(to)}`;
  return { [path]: await format(text, { ...(await resolveConfig(file)), filepath: file }) };
}
