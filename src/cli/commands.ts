import { z } from 'zod';
import { toApiKeyResponse } from '../api-keys/api-key.presenter.js';
import { API_KEYS, findApiKeyBusiness } from '../api-keys/api-key.repository.js';
import { createApiKey, revokeKey } from '../api-keys/api-key.service.js';
import { toBusinessResponse } from '../businesses/business.presenter.js';
import { changeBusiness, createBusiness } from '../businesses/business.service.js';
import { toLocationResponse } from '../locations/location.presenter.js';
import { changeLocation, createLocation, removeLocation } from '../locations/location.service.js';
import { toTeamMember } from '../team/team.presenter.js';
import { changeMemberRole, removeMember } from '../team/team-members.service.js';
import { PLANS, ROLES, SCOPES, email, oneLine, uuid } from '../shared/schemas.js';
import { findUserByEmail } from '../users/user.repository.js';
import { addMember } from '../users/user.service.js';
import { hashPassword } from '../users/password.js';
import { newPassword } from '../users/password-policy.js';
import {
  command,
  flag,
  name,
  requireBusiness,
  requireLocationBusiness,
  resetPassword,
  type Command,
} from './command.js';
import { CliError } from './errors.js';
import { askNewPassword, passwordTarget, replaceUserPassword } from './passwords.js';

export { CliError };

export const COMMANDS: Record<string, Record<string, Command>> = {
  business: {
    create: command({
      usage:
        'business create --name NAME [--plan free|starter|business|enterprise] [--owner-email EMAIL] ' +
        '[--owner-name NAME] ' +
        '[--owner-password PW [--reset-password]]',
      summary: 'Create a business and its owner user (on a terminal, asks for the owner’s password)',
      options: {
        name: { type: 'string', description: 'display name', required: true },
        plan: { type: 'string', description: `plan tier (${PLANS.join('|')}), default business` },
        'owner-email': { type: 'string', description: 'email of the owner; a placeholder is generated if absent' },
        'owner-name': { type: 'string', description: 'the new owner’s display name (an existing user keeps theirs)' },
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
        'owner-name': name.optional(),
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
          ownerName: input['owner-name'],
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
          owner: { id: owner.id, email: owner.email, name: owner.name },
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
        name: oneLine(100),
        scope: z.enum(SCOPES).default('read'),
        user: uuid.optional(),
      }),
      async run(db, input, config) {
        await requireBusiness(db, input.business);
        const { row, key } = await createApiKey(
          db.pool,
          input.business,
          { name: input.name, scope: input.scope, createdBy: input.user },
          { maxActive: config.API_KEYS_MAX_PER_BUSINESS },
        );
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
        return (await API_KEYS.page(db.pool, input.business, everyKey)).rows.map(toApiKeyResponse);
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
