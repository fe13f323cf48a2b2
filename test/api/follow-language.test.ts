import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildSuggestion, buildTeam, uniqueEmail } from '../support/factories.js';
import { useSmtpApp } from '../support/mail.js';

/** A follow made on the page in one language gets its emails in that language (a real SMTP peer). */
const ctx = useTestApp();
const mail = useSmtpApp(ctx, { poll: true });
const ORIGIN = 'http://localhost:3000';

async function followFrom(code: string, suggestionId: string, email: string, headers: Record<string, string>) {
  const res = await supertest(mail.app)
    .post(`/f/${code}/follow/${suggestionId}`)
    .set('Origin', ORIGIN)
    .set(headers)
    .type('form')
    .send({ email, sort: 'top' });
  expect(res.status, res.text).toBe(303);
}

describe('the follower’s language', () => {
  it('When a visitor follows on the German page, then the confirmation is in German', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Hafermilch, bitte' });
    const email = uniqueEmail('folger');
    await followFrom(qr.code, s.id, email, { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' });
    const confirmation = await mail.peer.waitFor(email);
    expect(confirmation.subject).toBe(`Bestätigen: einem Vorschlag an ${t.business.name} folgen`);
    expect(confirmation.text).toContain('Bestätigen und folgen');
    const { rows } = await ctx.db.pool.query<{ language: string }>(
      'SELECT language FROM suggestion_follows WHERE business_id = $1 AND suggestion_id = $2',
      [t.business.id, s.id],
    );
    expect(rows).toEqual([{ language: 'de' }]);
  });

  it('When the visitor chose French with ?lang= (its cookie), then the confirmation is in French', async () => {
    const t = await buildTeam(ctx.db);
    const qr = await buildQrCode(ctx.db, t.business.id);
    const s = await buildSuggestion(ctx.db, t.business.id, { visibility: 'public', content: 'Du lait d’avoine' });
    const email = uniqueEmail('suiveur');
    await followFrom(qr.code, s.id, email, { 'Accept-Language': 'de', Cookie: 'fb_lang=fr' });
    const confirmation = await mail.peer.waitFor(email);
    expect(confirmation.subject).toBe(`Confirmez : suivre une suggestion faite à ${t.business.name}`);
  });
});
