import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTeam, uniqueEmail } from '../support/factories.js';
import { DASHBOARD_URL, tokenIn, useSmtpApp } from '../support/mail.js';

/** The staff's emails (invite, password reset) as a person reads them: received by a real SMTP peer. */
const ctx = useTestApp();
const mail = useSmtpApp(ctx);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** A date and time as English readers write them, never ISO: "November 28, 2026 at 3:04 AM (UTC)". */
const HUMAN_EXPIRY = /until [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s[AP]M \(UTC\)/;

describe('staff emails', () => {
  it('When an owner invites, then the email names them and their address, says until when in words, and names no API route', async () => {
    const t = await buildTeam(ctx.db);
    await ctx.db.pool.query('UPDATE users SET name = $1 WHERE id = $2', ['Ana Silva', t.owner.id]);
    const { email: ownerEmail } = (
      await ctx.db.pool.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [t.owner.id])
    ).rows[0]!;
    const invitee = uniqueEmail('lea');
    const res = await mail
      .request()
      .post(`/businesses/${t.business.id}/team/invite`)
      .set(bearer(t.ownerToken))
      .send({ email: invitee, role: 'admin' });
    expect(res.status).toBe(201);

    const message = await mail.peer.waitFor(invitee);
    expect(message.text).toContain(`Ana Silva (${ownerEmail}) invited you to join ${t.business.name} as an admin.`);
    expect(message.text).toMatch(HUMAN_EXPIRY);
    expect(message.text).toContain(`${DASHBOARD_URL}/accept-invite#token=`);
    expect(message.text).not.toContain('POST /invites/accept');
    expect(message.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    expect(message.html).toContain('Ana Silva');
    expect(tokenIn(message, 'fbi_')).toMatch(/^fbi_/);
  });

  it('When a password reset is asked for, then the email says how long it works in words and names no API route', async () => {
    const t = await buildTeam(ctx.db);
    const { email } = (
      await ctx.db.pool.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [t.owner.id])
    ).rows[0]!;
    expect((await mail.request().post('/auth/password-reset').send({ email })).status).toBe(202);

    const message = await mail.peer.waitFor(email);
    expect(message.subject).toBe('Reset your Feedback password');
    expect(message.text).toContain('It works once, within 30 minutes.');
    expect(message.text).toContain(`${DASHBOARD_URL}/reset-password#token=`);
    expect(message.text).not.toContain('POST /auth');
    expect(tokenIn(message, 'fbr_')).toMatch(/^fbr_/);
  });
});
