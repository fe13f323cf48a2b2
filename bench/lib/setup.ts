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
        await createApiKey(pool, business.id, { name: 'bench', scope: 'read' });
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
