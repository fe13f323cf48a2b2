import { z } from 'zod';
import { toApiKeyResponse } from '../api-keys/api-key.presenter.js';
import { findApiKeyBusiness, findApiKeys } from '../api-keys/api-key.repository.js';
import { createApiKey, revokeKey } from '../api-keys/api-key.service.js';
import { findBusiness } from '../businesses/business.repository.js';
import { createBusiness } from '../businesses/business.service.js';
import type { Database } from '../db/database.js';
import { insertLocation } from '../locations/location.repository.js';
import { newId } from '../shared/ids.js';
import { PLANS, ROLES, SCOPES, email, queryInt, uuid } from '../shared/schemas.js';
import { seedBusiness } from '../seed/seed.service.js';
import { addMember } from '../users/user.service.js';
import { progressBar } from './progress.js';

export class CliError extends Error {}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; description: string; required?: boolean }>;

export interface Command {
  usage: string;
  summary: string;
  options: OptionSpec;
  /** Names of positional arguments, in order. */
  positionals?: string[];
  schema: z.ZodType;
  run(db: Database, input: never): Promise<unknown>;
}

async function requireBusiness(db: Database, id: string) {
  const business = await findBusiness(db.pool, id);
  if (!business) throw new CliError(`business ${id} not found`);
  return business;
}

const name = z.string().trim().min(1).max(200);

function command<S extends z.ZodType>(
  spec: Omit<Command, 'schema' | 'run'> & { schema: S; run(db: Database, input: z.output<S>): Promise<unknown> },
): Command {
  return spec;
}

export const COMMANDS: Record<string, Record<string, Command>> = {
  business: {
    create: command({
      usage: 'business create --name NAME [--plan free|starter|business|enterprise] [--owner-email EMAIL]',
      summary: 'Create a business and its owner user',
      options: {
        name: { type: 'string', description: 'display name', required: true },
        plan: { type: 'string', description: `plan tier (${PLANS.join('|')}), default business` },
        'owner-email': { type: 'string', description: 'email of the owner; a placeholder is generated if absent' },
      },
      schema: z.object({ name, plan: z.enum(PLANS).default('business'), 'owner-email': email.optional() }),
      async run(db, input) {
        const { business, owner } = await createBusiness(db.pool, {
          name: input.name,
          plan: input.plan,
          ownerEmail: input['owner-email'],
        });
        return {
          id: business.id,
          name: business.name,
          plan: business.plan,
          owner: { id: owner.id, email: owner.email },
        };
      },
    }),
  },
  user: {
    create: command({
      usage: 'user create --business ID --email EMAIL [--name NAME] [--role owner|admin|member] [--password PW]',
      summary: 'Add a user to a business (creating the user if the email is new)',
      options: {
        business: { type: 'string', description: 'business id', required: true },
        email: { type: 'string', description: 'login email', required: true },
        name: { type: 'string', description: 'display name' },
        role: { type: 'string', description: `${ROLES.join('|')}, default member` },
        password: { type: 'string', description: 'dashboard password (stored as an argon2id hash), 8+ characters' },
      },
      schema: z.object({
        business: uuid,
        email,
        name: name.optional(),
        role: z.enum(ROLES).default('member'),
        password: z.string().min(8).max(200).optional(),
      }),
      async run(db, input) {
        await requireBusiness(db, input.business);
        const user = await addMember(db.pool, input.business, input);
        return { id: user.id, email: user.email, name: user.name, role: user.role, business_id: input.business };
      },
    }),
  },
  key: {
    create: command({
      usage: 'key create --business ID --name NAME [--scope read|write] [--user USER_ID]',
      summary: 'Create an API key; the full key is printed once',
      options: {
        business: { type: 'string', description: 'business id', required: true },
        name: { type: 'string', description: 'descriptive name, shown in comment attributions', required: true },
        scope: { type: 'string', description: `${SCOPES.join('|')}, default read` },
        user: { type: 'string', description: "member the key acts for, default the business's owner" },
      },
      schema: z.object({
        business: uuid,
        name: name.max(100),
        scope: z.enum(SCOPES).default('read'),
        user: uuid.optional(),
      }),
      async run(db, input) {
        await requireBusiness(db, input.business);
        const { row, key } = await createApiKey(db.pool, input.business, {
          name: input.name,
          scope: input.scope,
          createdBy: input.user,
        });
        return { id: row.id, key, prefix: row.prefix, name: row.name, scope: row.scope, created_at: row.created_at };
      },
    }),
    list: command({
      usage: 'key list --business ID',
      summary: "List a business's keys (never the secrets)",
      options: { business: { type: 'string', description: 'business id', required: true } },
      schema: z.object({ business: uuid }),
      async run(db, input) {
        await requireBusiness(db, input.business);
        const everyKey = { sort: 'created_at', order: 'asc', limit: 1_000_000, offset: 0 } as const;
        return (await findApiKeys(db.pool, input.business, everyKey)).map(toApiKeyResponse);
      },
    }),
    revoke: command({
      usage: 'key revoke KEY_ID',
      summary: 'Revoke a key, instantly and permanently',
      options: {},
      positionals: ['key_id'],
      schema: z.object({ key_id: uuid }),
      async run(db, input) {
        const businessId = await findApiKeyBusiness(db.pool, input.key_id);
        if (!businessId) throw new CliError(`API key ${input.key_id} not found`);
        return toApiKeyResponse(await revokeKey(db.pool, businessId, input.key_id, null));
      },
    }),
  },
  location: {
    create: command({
      usage: 'location create --business ID --name NAME',
      summary: 'Create a location (suggestions may name it in location_id)',
      options: {
        business: { type: 'string', description: 'business id', required: true },
        name: { type: 'string', description: 'location name', required: true },
      },
      schema: z.object({ business: uuid, name }),
      async run(db, input) {
        await requireBusiness(db, input.business);
        return insertLocation(db.pool, input.business, { id: newId(), name: input.name });
      },
    }),
  },
};

/** A row count on the command line: digits only, up to ten million. */
const rowCount = queryInt(0, 10_000_000);

/** Commands without a group: `admin -- seed ...`. */
export const STANDALONE_COMMANDS: Record<string, Command> = {
  seed: command({
    usage: 'seed --business ID --suggestions N [--issues M] [--comments K]',
    summary: 'Insert realistic generated data for a business (load tests, demos); prints a summary',
    options: {
      business: { type: 'string', description: 'business id', required: true },
      suggestions: { type: 'string', description: 'suggestions to insert', required: true },
      issues: { type: 'string', description: 'issues to insert, default 0' },
      comments: { type: 'string', description: 'comments spread over the inserted suggestions and issues, default 0' },
    },
    schema: z
      .object({
        business: uuid,
        suggestions: rowCount,
        issues: rowCount.default(0),
        comments: rowCount.default(0),
      })
      .refine((input) => input.comments === 0 || input.suggestions + input.issues > 0, {
        message: 'comments need suggestions or issues to be attached to',
        path: ['comments'],
      }),
    async run(db, input) {
      await requireBusiness(db, input.business);
      // Progress is for a person watching: only on a terminal, and never on stdout (the JSON summary).
      const bar = process.stderr.isTTY ? progressBar(process.stderr, 'seeding') : undefined;
      const summary = await seedBusiness(db.pool, input.business, input, {
        onProgress: bar && ((done, total) => bar.update(done, total)),
      });
      bar?.finish();
      return summary;
    },
  }),
};
