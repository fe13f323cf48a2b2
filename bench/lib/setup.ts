import pg from 'pg';
import { createApiKey } from '../../src/api-keys/api-key.service.js';
import { createBusiness } from '../../src/businesses/business.service.js';
import { createPool } from '../../src/db/database.js';
import { seedBusiness } from '../../src/seed/seed.service.js';
import { admin } from './processes.js';

export interface Tenant {
  id: string;
  /** A write key (write includes read). */
  key: string;
}

/** A business and a write key, made with the admin CLI as an operator would. */
export async function createTenant(name: string, env: Record<string, string>): Promise<Tenant> {
  const business = await admin<{ id: string }>(['business', 'create', '--name', name], env);
  const { key } = await admin<{ key: string }>(
    ['key', 'create', '--business', business.id, '--name', 'bench', '--scope', 'write'],
    env,
  );
  return { id: business.id, key };
}

export interface SeedSummary {
  rows: number;
  rows_per_second: number;
}

/** The seed command, as documented: suggestions plus a tenth as many issues and a twentieth as many comments. */
export function seedWithCli(tenant: Tenant, suggestions: number, env: Record<string, string>): Promise<SeedSummary> {
  const args = ['seed', '--business', tenant.id, '--suggestions', String(suggestions)];
  args.push('--issues', String(Math.floor(suggestions / 10)), '--comments', String(Math.floor(suggestions / 20)));
  return admin<SeedSummary>(args, env);
}

/**
 * The crowd the measured businesses live among: `count` businesses of `suggestions` rows each. Made in
 * this process with the seed command's own code, two at a time: a hundred CLI processes would spend
 * more time starting than seeding.
 */
export async function seedOtherBusinesses(databaseUrl: string, count: number, suggestions: number): Promise<void> {
  const pool = createPool({ connectionString: databaseUrl, max: 4 }, () => undefined);
  try {
    const next = { value: 0 };
    const worker = async () => {
      for (let i = next.value++; i < count; i = next.value++) {
        const { business } = await createBusiness(pool, { name: `Other ${i + 1}`, plan: 'business' });
        await createApiKey(pool, business.id, { name: 'bench', scope: 'read' }, { maxActive: 100 });
        await seedBusiness(
          pool,
          business.id,
          { suggestions, issues: Math.floor(suggestions / 10), comments: 0 },
          { concurrency: 1 },
        );
      }
    };
    await Promise.all([worker(), worker()]);
  } finally {
    await pool.end();
  }
}

/**
 * What PostgreSQL alone inserts into the suggestions table, every index, generated column and
 * trigger included, with no client doing any work: rows made by generate_series inside the server,
 * in batches like the seed command's, on two connections at once (one per core here). Ids are
 * time-ordered like the seed command's UUIDv7. The seed command cannot beat this; bench/README.md
 * compares the two.
 */
export async function postgresIngestRate(databaseUrl: string, businessId: string, rows: number): Promise<number> {
  const BATCH = 5_000;
  const pool = createPool({ connectionString: databaseUrl, max: 2 }, () => undefined);
  try {
    await pool.query('CREATE SEQUENCE IF NOT EXISTS bench_ingest_ids');
    const insert = /* sql */ `
      INSERT INTO suggestions (id, business_id, content, status, priority, sentiment, sentiment_score,
        customer_name, customer_email, is_anonymous, visibility, review_state, source, created_at, updated_at)
      SELECT (substr(t.ms, 1, 8) || '-' || substr(t.ms, 9, 4) || '-7000-8000-'
          || lpad(to_hex(nextval('bench_ingest_ids')), 12, '0'))::uuid,
        $1, 'The coffee was great but the queue was slow this morning, visit ' || g,
        (ARRAY['pending', 'reviewing', 'in_progress', 'completed']::suggestion_status[])[1 + g % 4],
        (ARRAY['low', 'medium', 'high', 'critical']::priority[])[1 + g % 4],
        (ARRAY['positive', 'neutral', 'negative']::sentiment[])[1 + g % 3], (g % 200 - 100) / 100.0,
        'Customer ' || g % 97, 'customer' || g % 97 || '@example.com', g % 5 = 0, 'internal', 'not_required',
        'import', now() - (g % 525600) * interval '1 minute', now()
      FROM generate_series(1, ${BATCH}) AS g,
        (SELECT lpad(to_hex((extract(epoch FROM now()) * 1000)::bigint), 12, '0') AS ms) AS t`;
    const started = performance.now();
    const next = { batch: 0 };
    const worker = async () => {
      while (next.batch++ < rows / BATCH) await pool.query(insert, [businessId]);
    };
    await Promise.all([worker(), worker()]);
    return Math.round(rows / ((performance.now() - started) / 1000));
  } finally {
    await pool.end();
  }
}

/** Fresh statistics and visibility maps, as autovacuum would leave a table that has settled. */
export async function vacuumAnalyze(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
  } finally {
    await client.end();
  }
}

/** A dashboard session of an admin of the tenant's business: made with the CLI, signed in over HTTP. */
export async function signIn(tenant: Tenant, baseUrl: string, env: Record<string, string>): Promise<string> {
  const email = `bench-${tenant.id}@example.com`;
  const password = 'a bench passphrase nobody guesses';
  await admin(
    ['user', 'create', '--business', tenant.id, '--email', email, '--role', 'admin', '--password', password],
    env,
  );
  const res = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in for the bench failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Tags the large business's suggestions as a business sorting its feedback would (issue 33): a
 * `terrace` tag on one in twenty and `coffee` on one in fifty (some carry both), chosen by a hash of
 * the id so they are spread over the whole history. Written by UPDATE, so the tag counters' triggers
 * count them as they would any tagging.
 */
export async function tagSuggestions(databaseUrl: string, businessId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      /* sql */ `
      INSERT INTO tags (id, business_id, name, color, public)
      VALUES (gen_random_uuid(), $1, 'terrace', '#2f855a', true),
        (gen_random_uuid(), $1, 'coffee', '#7b341e', false)`,
      [businessId],
    );
    await client.query(
      /* sql */ `
      UPDATE suggestions
      SET tags = ARRAY(
        SELECT t
        FROM unnest(ARRAY['coffee', 'terrace']) AS t
        WHERE (t = 'terrace' AND abs(hashtext(id::text)) % 20 = 0)
          OR (t = 'coffee' AND abs(hashtext(id::text || 'c')) % 50 = 0))
      WHERE business_id = $1
        AND (abs(hashtext(id::text)) % 20 = 0 OR abs(hashtext(id::text || 'c')) % 50 = 0)`,
      [businessId],
    );
  } finally {
    await client.end();
  }
}
