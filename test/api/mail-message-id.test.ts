import { describe, expect, it } from 'vitest';
import { newId } from '../../src/shared/ids.js';
import { useTestApp } from '../support/app.js';
import { uniqueEmail } from '../support/factories.js';
import { useSmtpApp } from '../support/mail.js';

/** The outbox delivers at least once: a message sent again carries the Message-ID it had (its row's id). */
const ctx = useTestApp();
const mail = useSmtpApp(ctx);

describe('mail outbox Message-ID', () => {
  it("When a message is sent again because its first sending was not recorded, then both copies carry the same Message-ID, made of its id and the sender's domain", async () => {
    const to = uniqueEmail('reader');
    const id = newId();
    await mail.sender.enqueue(ctx.db.pool, {
      id,
      recipient: to,
      subject: 'Hello',
      text: 'Hi',
      html: '<p>Hi</p>',
      lifetimeMs: 60_000,
    });
    await ctx.db.pool.query('UPDATE mail_outbox SET next_attempt_at = now() WHERE id = $1', [id]);
    expect(await mail.sender.runDue()).toBe(1);
    const first = await mail.peer.waitFor(to);
    // As if the instance had died after the server accepted it, before recording it: still pending.
    await ctx.db.pool.query(
      `UPDATE mail_outbox SET status = 'pending', text_body = 'Hi', html_body = '<p>Hi</p>', next_attempt_at = now()
       WHERE id = $1`,
      [id],
    );
    expect(await mail.sender.runDue()).toBe(1);
    const again = await mail.peer.waitFor(to, { count: 2 });
    expect(first.headers['message-id']).toBe(`<${id}@feedback.test>`);
    expect(again.headers['message-id']).toBe(`<${id}@feedback.test>`);
    const { rows } = await ctx.db.pool.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM mail_outbox WHERE id = $1',
      [id],
    );
    expect(rows).toEqual([{ status: 'sent', attempts: 2 }]);
  });
});
