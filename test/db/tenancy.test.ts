import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { openTestDatabase } from '../support/database.js';

/**
 * The premise of sharding by tenant (docs/operations.md, "Past one primary"): every tenant table
 * carries business_id, and every statement on one filters by it (or, inserting, sets it). A table or a
 * statement that does not is listed here with the reason; a new one fails until it is decided.
 * Embedded only (vitest.config.ts): the catalog is this checkout's migrations, not a shared database's.
 */

/** Tables without business_id, and why they need none. */
const GLOBAL_TABLES: Record<string, string> = {
  businesses: 'the tenants themselves: their id is the business id',
  users: 'people, who may belong to several businesses (through memberships)',
  sessions: "a user's sign-in, whichever businesses the user belongs to",
  password_resets: "a user's, not a business's",
  idempotency_keys: 'scoped to the credential (an API key or a user), which is checked before',
  mail_outbox: "every message the service sends, a user's password reset among them",
  schema_migrations: 'the migrate runner: which migrations have run',
  setup_tokens: "the installation's first-run links, used only while no business exists",
  email_confirmations: "a sign-up before its business exists, or a user's email change",
};

/**
 * Statements on tenant tables that do not filter by business_id, by file and a pattern of their text:
 * each crosses tenants on purpose. The same list is the "queries that cross tenants today" of the plan.
 */
const CROSS_TENANT: { file: string; pattern: RegExp; reason: string }[] = [
  {
    file: 'db/restore.ts',
    pattern: /max\(xid\) < pg_current_xact_id\(\)|UPDATE events SET xid/,
    reason: "a restore places every business's restored events below the new database's transaction ids",
  },
  {
    file: 'api-keys/api-key.repository.ts',
    pattern: /SELECT business_id\s+FROM api_keys\s+WHERE id = \$1/,
    reason: 'finds which business a key id belongs to, to tell "not yours" from "not found"',
  },
  {
    file: 'locations/location.repository.ts',
    pattern: /SELECT business_id\s+FROM locations\s+WHERE id = \$1/,
    reason: 'finds which business a location id belongs to, to tell "not yours" from "not found"',
  },
  {
    file: 'team/team.repository.ts',
    pattern: /FROM team_invites\s+WHERE token_digest = \$1/,
    reason: 'an invite is found by its token, before anyone knows its business',
  },
  {
    file: 'team/team.repository.ts',
    pattern: /UPDATE team_invites\s+SET accepted_at = now\(\)\s+WHERE token_digest = \$1/,
    reason: 'accepting an invite found by its token',
  },
  {
    file: 'qr-codes/qr-code.repository.ts',
    pattern: /FROM qr_code_scans s\s+WHERE s\.qr_code_id = qr_codes\.id/,
    reason: 'a correlated fragment placed inside a statement on qr_codes that filters by business_id',
  },
  {
    file: 'webhooks/webhook.queue.ts',
    pattern: /WITH attempt AS/,
    reason: 'the delivery worker records attempts by delivery id, for every business',
  },
  {
    file: 'webhooks/webhook.queue.ts',
    pattern: /UPDATE webhook_endpoints\s+SET active = false/,
    reason: 'the delivery worker disables a failing endpoint by id, for every business',
  },
  {
    file: 'webhooks/webhook.queue.ts',
    pattern: /DELETE FROM webhook_deliveries/,
    reason: 'retention: old deliveries of every business',
  },
  {
    file: 'follows/follow.repository.ts',
    pattern: /DELETE FROM suggestion_follows/,
    reason: 'retention: unconfirmed follows of every business',
  },
  {
    file: 'follows/follow-notice.repository.ts',
    pattern: /DELETE FROM follow_mail_log/,
    reason: "retention: the follower mail log's old rows, every business's",
  },
  {
    file: 'public-page/page.repository.ts',
    pattern: /DELETE FROM page_form_tokens/,
    reason: 'retention: expired form tokens of every business',
  },
];

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every template literal of src/ that is a statement (SELECT, INSERT, UPDATE, DELETE), with its file. */
function statements(): { file: string; sql: string; text: string }[] {
  return sourceFiles().flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    return [...text.matchAll(/`([^`]*)`/g)]
      .map((match) => match[1]!)
      .filter((sql) => /\b(SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM)\b/.test(sql))
      .map((sql) => ({ file: relative(SRC, path), sql, text }));
  });
}

const tablesIn = (sql: string) =>
  [...sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+([a-z_]\w*)/gi)].map((match) => match[1]!.toLowerCase());

/** Filters by business_id (`business_id = `, a join on it, whereClause's WHERE), or inserts it. */
const filtersByBusiness = (sql: string, fileText: string) =>
  /business_id\s*(=|IN\b)|=\s*[a-z_]+\.business_id/i.test(sql) ||
  /\bINSERT\s+INTO\s+\w+(\s+AS\s+\w+)?\s*\([^)]*\bbusiness_id\b/i.test(sql) ||
  (/\$\{(sql|where)\}/.test(sql) && /\bwhereClause\(/.test(fileText));

let db: Database;
let tenantTables: Set<string>;
let globalTables: string[];

beforeAll(async () => {
  db = await openTestDatabase();
  const { rows } = await db.pool.query<{ name: string; tenant: boolean }>(/* sql */ `
    SELECT t.table_name AS name, bool_or(c.column_name = 'business_id') AS tenant
    FROM information_schema.tables t
    JOIN information_schema.columns c ON c.table_schema = t.table_schema AND c.table_name = t.table_name
    WHERE t.table_schema = current_schema()
      AND t.table_type = 'BASE TABLE'
    GROUP BY t.table_name`);
  tenantTables = new Set(rows.filter((row) => row.tenant).map((row) => row.name));
  globalTables = rows.filter((row) => !row.tenant).map((row) => row.name);
});
afterAll(() => db?.close());

describe('Tenancy: the premise of sharding by business_id', () => {
  it('When the catalog is read, then every table carries business_id but the listed global ones', () => {
    expect(tenantTables.size).toBeGreaterThan(10);
    expect(globalTables.sort()).toEqual(Object.keys(GLOBAL_TABLES).sort());
  });

  it('When the SQL in src/ is scanned, then every statement on a tenant table filters by business_id but the listed cross-tenant ones', () => {
    const onTenantTables = statements().filter(({ sql }) => tablesIn(sql).some((table) => tenantTables.has(table)));
    expect(onTenantTables.length).toBeGreaterThan(50);
    const unfiltered = onTenantTables.filter(({ sql, text }) => !filtersByBusiness(sql, text));
    const unlisted = unfiltered
      .filter(({ file, sql }) => !CROSS_TENANT.some((entry) => entry.file === file && entry.pattern.test(sql)))
      .map(({ file, sql }) => `${file}: ${sql.replace(/\s+/g, ' ').trim().slice(0, 120)}`);
    expect(unlisted).toEqual([]);
    // A listed exception that no longer matches anything is removed, so that the list stays the truth.
    const stale = CROSS_TENANT.filter(
      (entry) => !unfiltered.some(({ file, sql }) => entry.file === file && entry.pattern.test(sql)),
    ).map((entry) => `${entry.file}: ${String(entry.pattern)}`);
    expect(stale).toEqual([]);
  });
});
