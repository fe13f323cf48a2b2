import { z } from 'zod';
import { toApiKeyResponse } from '../api-keys/api-key.presenter.js';
import { findApiKeyBusiness, findApiKeys } from '../api-keys/api-key.repository.js';
import { createApiKey, revokeKey } from '../api-keys/api-key.service.js';
import { toBusinessResponse } from '../businesses/business.presenter.js';
import { findBusiness } from '../businesses/business.repository.js';
import { changeBusiness, createBusiness } from '../businesses/business.service.js';
import type { Database } from '../db/database.js';
import { toLocationResponse } from '../locations/location.presenter.js';
import { findLocationBusiness } from '../locations/location.repository.js';
import { changeLocation, createLocation, removeLocation } from '../locations/location.service.js';
import { toTeamMember } from '../team/team.presenter.js';
import { changeMemberRole, removeMember } from '../team/team-members.service.js';
import { PLANS, ROLES, SCOPES, email, queryInt, uuid } from '../shared/schemas.js';
import { seedBusiness } from '../seed/seed.service.js';
import { findUserByEmail } from '../users/user.repository.js';
import { addMember } from '../users/user.service.js';
import { hashPassword } from '../users/password.js';
import { newPassword } from '../users/password-policy.js';
import { CliError } from './errors.js';
import { askNewPassword, passwordTarget, replaceUserPassword } from './passwords.js';
import { progressBar } from './progress.js';

export { CliError };

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

async function requireLocationBusiness(db: Database, locationId: string) {
  const businessId = await findLocationBusiness(db.pool, locationId);
  if (!businessId) throw new CliError(`location ${locationId} not found`);
  return businessId;
}

const name = z.string().trim().min(1).max(200);
const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

function command<S extends z.ZodType>(
  spec: Omit<Command, 'schema' | 'run'> & { schema: S; run(db: Database, input: z.output<S>): Promise<unknown> },
): Command {
  return spec;
}

const resetPassword = {
  type: 'boolean',
  description: "with a password for an email that already has an account: replace that account's password",
} as const;

export const COMMANDS: Record<string, Record<string, Command>> = {
  business: {
    create: command({
      usage:
        'business create --name NAME [--plan free|starter|business|enterprise] [--owner-email EMAIL] ' +
        '[--owner-password PW [--reset-password]]',
      summary: 'Create a business and its owner user (on a terminal, asks for the owner’s password)',
      options: {
        name: { type: 'string', description: 'display name', required: true },
        plan: { type: 'string', description: `plan tier (${PLANS.join('|')}), default business` },
        'owner-email': { type: 'string', description: 'email of the owner; a placeholder is generated if absent' },
        'owner-password': {
          type: 'string',
          description: 'the new owner’s dashboard password, 12+ characters; asked for when absent on a terminal',
        },
        'reset-password': resetPassword,
      },
      schema: z.object({
        name,
        plan: z.enum(PLANS).default('business'),
        'owner-email': email.optional(),
        'owner-password': newPassword.optional(),
        'reset-password': z.boolean().default(false),
      }),
      async run(db, input) {
        const ownerEmail = input['owner-email'];
        const isNew = !ownerEmail || !(await findUserByEmail(db.pool, ownerEmail));
        // On a terminal, the new owner's password is asked for rather than left unset.
        const password =
          input['owner-password'] ??
          (isNew && process.stdin.isTTY ? await askNewPassword(ownerEmail ?? 'the owner') : undefined);
        const replace = ownerEmail
          ? await passwordTarget(db, ownerEmail, {
              password,
              reset: input['reset-password'],
              flag: '--owner-password',
            })
          : null;
        const { business, owner } = await createBusiness(db.pool, {
          name: input.name,
          plan: input.plan,
          ownerEmail,
          ownerPasswordHash: password === undefined || replace ? undefined : await hashPassword(password),
        });
        await replaceUserPassword(db, replace, password);
        if (password === undefined) {
          process.stderr.write(
            'note: no password given for the owner: unless they already have one, they sign in after ' +
              'POST /auth/password-reset (or run this with --owner-password)\n',
          );
        }
        return {
          id: business.id,
          name: business.name,
          plan: business.plan,
          owner: { id: owner.id, email: owner.email },
        };
      },
    }),
    update: command({
      usage: 'business update BUSINESS_ID [--name NAME] [--approval-required true|false]',
      summary: 'Rename a business or change Approval required (existing suggestions stay as they are)',
      options: {
        name: { type: 'string', description: 'new display name' },
        'approval-required': { type: 'string', description: 'true|false: public suggestions wait for review' },
      },
      positionals: ['business_id'],
      schema: z
        .object({ business_id: uuid, name: name.optional(), 'approval-required': flag.optional() })
        .refine((input) => input.name !== undefined || input['approval-required'] !== undefined, {
          message: 'give --name or --approval-required',
        }),
      async run(db, input) {
        await requireBusiness(db, input.business_id);
        const changes = { name: input.name, approval_required: input['approval-required'] };
        return toBusinessResponse(await changeBusiness(db.pool, input.business_id, null, changes));
      },
    }),
  },
  member: {
    role: command({
      usage: 'member role --business ID --user USER_ID --role owner|admin|member',
      summary: "Change a member's role (a business always keeps an owner)",
      options: {
        business: { type: 'string', description: 'business id', required: true },
        user: { type: 'string', description: 'user id of the member', required: true },
        role: { type: 'string', description: ROLES.join('|'), required: true },
      },
      schema: z.object({ business: uuid, user: uuid, role: z.enum(ROLES) }),
      async run(db, input) {
        await requireBusiness(db, input.business);
        return toTeamMember(await changeMemberRole(db.pool, input.business, null, input.user, input.role));
      },
    }),
    remove: command({
      usage: 'member remove --business ID --user USER_ID',
      summary: 'Remove a member: their issues are unassigned (a business always keeps an owner)',
      options: {
        business: { type: 'string', description: 'business id', required: true },
        user: { type: 'string', description: 'user id of the member', required: true },
      },
      schema: z.object({ business: uuid, user: uuid }),
      async run(db, input) {
        await requireBusiness(db, input.business);
        await removeMember(db.pool, input.business, null, input.user);
        return { business_id: input.business, user_id: input.user, removed: true };
      },
    }),
  },
  user: {
    create: command({
      usage:
        'user create --business ID --email EMAIL [--name NAME] [--role owner|admin|member] ' +
        '[--password PW [--reset-password]]',
      summary: 'Add a user to a business (creating the user if the email is new)',
      options: {
        business: { type: 'string', description: 'business id', required: true },
        email: { type: 'string', description: 'login email', required: true },
        name: { type: 'string', description: 'display name' },
        role: { type: 'string', description: `${ROLES.join('|')}, default member` },
        password: {
          type: 'string',
          description: 'dashboard password of a new user (stored as an argon2id hash), 12+ characters',
        },
        'reset-password': resetPassword,
      },
      schema: z.object({
        business: uuid,
        email,
        name: name.optional(),
        role: z.enum(ROLES).default('member'),
        password: newPassword.optional(),
        'reset-password': z.boolean().default(false),
      }),
      async run(db, input) {
        await requireBusiness(db, input.business);
        const replace = await passwordTarget(db, input.email, {
          password: input.password,
          reset: input['reset-password'],
          flag: '--password',
        });
        const user = await addMember(db.pool, input.business, {
          ...input,
          password: replace ? undefined : input.password,
        });
        await replaceUserPassword(db, replace, input.password);
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
        return toLocationResponse(await createLocation(db.pool, input.business, null, input.name));
      },
    }),
    update: command({
      usage: 'location update LOCATION_ID --name NAME',
      summary: 'Rename a location',
      options: { name: { type: 'string', description: 'new name', required: true } },
      positionals: ['location_id'],
      schema: z.object({ location_id: uuid, name }),
      async run(db, input) {
        const businessId = await requireLocationBusiness(db, input.location_id);
        return toLocationResponse(await changeLocation(db.pool, businessId, null, input.location_id, input.name));
      },
    }),
    delete: command({
      usage: 'location delete LOCATION_ID [--force]',
      summary: 'Delete a location; --force detaches the QR codes, suggestions and issues that name it',
      options: { force: { type: 'boolean', description: 'detach what names it instead of refusing' } },
      positionals: ['location_id'],
      schema: z.object({ location_id: uuid, force: z.boolean().default(false) }),
      async run(db, input) {
        const businessId = await requireLocationBusiness(db, input.location_id);
        await removeLocation(db.pool, businessId, null, input.location_id, input.force);
        return { id: input.location_id, deleted: true };
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
      // A bulk load leaves the planner's statistics behind. Autovacuum (or the embedded server's
      // maintenance) catches up within a minute; a demo or benchmark started right after need not wait.
      await db.pool.query('ANALYZE suggestions, issues, comments');
      return summary;
    },
  }),
};
