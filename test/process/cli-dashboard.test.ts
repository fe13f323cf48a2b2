import { describe, expect, it } from 'vitest';
import { cliJson, databaseEnv, runCli } from '../support/processes.js';

/** What an operator can do without a dashboard: the admin CLI's business, location and member commands. */
describe('admin CLI for settings, locations and members', () => {
  const env = databaseEnv();

  it('When an operator renames a business, renames and deletes locations and changes members, then each prints JSON and the rules hold', async () => {
    const business = await cliJson<{ id: string; owner: { id: string } }>(
      ['business', 'create', '--name', 'Operator Co', '--owner-email', `op-${Date.now()}@x.test`],
      env,
    );
    const updated = await cliJson(
      ['business', 'update', business.id, '--name', 'Operator Ltd', '--approval-required', 'true'],
      env,
    );
    expect(updated).toMatchObject({ id: business.id, name: 'Operator Ltd', approval_required: true });

    const location = await cliJson<{ id: string }>(
      ['location', 'create', '--business', business.id, '--name', 'Dock'],
      env,
    );
    expect(await cliJson(['location', 'update', location.id, '--name', 'Dock 2'], env)).toMatchObject({
      name: 'Dock 2',
    });
    const duplicate = await runCli(['location', 'create', '--business', business.id, '--name', 'DOCK 2'], env);
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toContain('already exists');
    expect(await cliJson(['location', 'delete', location.id, '--force'], env)).toEqual({
      id: location.id,
      deleted: true,
    });

    const member = await cliJson<{ id: string }>(
      ['user', 'create', '--business', business.id, '--email', `m-${Date.now()}@x.test`],
      env,
    );
    const lastOwner = await runCli(
      ['member', 'role', '--business', business.id, '--user', business.owner.id, '--role', 'admin'],
      env,
    );
    expect(lastOwner.code).not.toBe(0);
    expect(lastOwner.stderr).toContain('last owner');
    expect(
      await cliJson(['member', 'role', '--business', business.id, '--user', member.id, '--role', 'owner'], env),
    ).toMatchObject({ user_id: member.id, role: 'owner' });
    expect(await cliJson(['member', 'remove', '--business', business.id, '--user', business.owner.id], env)).toEqual({
      business_id: business.id,
      user_id: business.owner.id,
      removed: true,
    });
  }, 120_000);
});
