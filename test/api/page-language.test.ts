import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildQrCode, buildSuggestion, buildTeam } from '../support/factories.js';

const ctx = useTestApp();
const asOwner = (t: Awaited<ReturnType<typeof buildTeam>>) => ({ Authorization: `Bearer ${t.ownerToken}` });

async function scene() {
  const t = await buildTeam(ctx.db);
  const qr = await buildQrCode(ctx.db, t.business.id);
  await buildSuggestion(ctx.db, t.business.id, { content: 'More vegan options, please' });
  return { t, url: `/f/${qr.code}` };
}

const htmlLang = (html: string) => /<html lang="([a-z]+)" dir="(ltr|rtl)">/.exec(html)?.slice(1);

describe('the public page’s language', () => {
  it('When a visitor sends Accept-Language: de, then the page is German, lang="de"', async () => {
    const { url } = await scene();
    const res = await ctx.request().get(url).set('Accept-Language', 'de').expect(200);
    expect(htmlLang(res.text)).toEqual(['de', 'ltr']);
    expect(res.text).toContain('Feedback geben');
    expect(res.text).toContain('Was andere vorgeschlagen haben');
    expect(res.text).not.toContain('Leave feedback');
  });

  it('When a visitor sends Accept-Language: ar, then the page is Arabic and right to left', async () => {
    const { url } = await scene();
    const res = await ctx.request().get(url).set('Accept-Language', 'ar-EG,ar;q=0.9').expect(200);
    expect(htmlLang(res.text)).toEqual(['ar', 'rtl']);
    expect(res.text).toContain('شاركنا رأيك');
  });

  it('When ranges carry q-values, then the highest the service has wins, in the header’s order on a tie', async () => {
    const { url } = await scene();
    const res = await ctx.request().get(url).set('Accept-Language', 'sv;q=1, fr;q=0.4, es;q=0.8, *;q=0.1').expect(200);
    expect(htmlLang(res.text)).toEqual(['es', 'ltr']);
    const refused = await ctx.request().get(url).set('Accept-Language', 'de;q=0, it-CH;q=0.5').expect(200);
    expect(htmlLang(refused.text)).toEqual(['it', 'ltr']);
  });

  it('When ?lang=fr is given, then it wins over Accept-Language, and its cookie keeps it on the next page', async () => {
    const { url } = await scene();
    const agent = ctx.request();
    const res = await agent.get(`${url}?lang=fr`).set('Accept-Language', 'de').expect(200);
    expect(htmlLang(res.text)).toEqual(['fr', 'ltr']);
    expect(res.text).toContain('Donner votre avis');
    const cookie = res.headers['set-cookie'] as unknown as string[];
    expect(cookie.join()).toMatch(/fb_lang=fr;.*HttpOnly/);
    const next = await ctx
      .request()
      .get(url)
      .set('Accept-Language', 'de')
      .set('Cookie', cookie[0]!.split(';')[0]!)
      .expect(200);
    expect(htmlLang(next.text)).toEqual(['fr', 'ltr']);
  });

  it('When ?lang= names a language the service lacks, then it is ignored and no cookie is set', async () => {
    const { url } = await scene();
    const res = await ctx.request().get(`${url}?lang=xx`).set('Accept-Language', 'nl').expect(200);
    expect(htmlLang(res.text)).toEqual(['nl', 'ltr']);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('When the business’s default_language is pl, then a visitor with no preference reads Polish', async () => {
    const { t, url } = await scene();
    const patched = await ctx
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set(asOwner(t))
      .send({ default_language: 'pl' })
      .expect(200);
    expect(patched.body.default_language).toBe('pl');
    const res = await ctx.request().get(url).expect(200);
    expect(htmlLang(res.text)).toEqual(['pl', 'ltr']);
    expect(res.text).toContain('Zostaw opinię');
    // A visitor who says what they read still gets it.
    const english = await ctx.request().get(url).set('Accept-Language', 'en-GB').expect(200);
    expect(htmlLang(english.text)).toEqual(['en', 'ltr']);
  });

  it('When a business is created, then its default_language is en; a language without a catalogue is refused (400, naming the field)', async () => {
    const { t } = await scene();
    const read = await ctx.request().get(`/businesses/${t.business.id}`).set(asOwner(t)).expect(200);
    expect(read.body.default_language).toBe('en');
    const refused = await ctx
      .request()
      .patch(`/businesses/${t.business.id}`)
      .set(asOwner(t))
      .send({ default_language: 'sv' })
      .expect(400);
    expect(JSON.stringify(refused.body)).toContain('default_language');
  });

  it('When the page is served, then it varies by Accept-Language and Cookie, and the kept page is per language', async () => {
    const { url } = await scene();
    const german = await ctx.request().get(url).set('Accept-Language', 'de').expect(200);
    expect(german.headers.vary).toMatch(/Accept-Language/);
    expect(german.headers.vary).toMatch(/Cookie/);
    // The same kept (cached) page in English right after: never the German one.
    const english = await ctx.request().get(url).expect(200);
    expect(htmlLang(english.text)).toEqual(['en', 'ltr']);
    const again = await ctx.request().get(url).set('Accept-Language', 'de').expect(200);
    expect(htmlLang(again.text)).toEqual(['de', 'ltr']);
  });

  it('When the page is read, then a language switch links every language by its own name, the current one marked', async () => {
    const { url } = await scene();
    const res = await ctx.request().get(url).set('Accept-Language', 'ja').expect(200);
    expect(res.text).toContain('<nav class="languages" aria-label="言語">');
    for (const code of ['ar', 'de', 'en', 'es', 'fr', 'it', 'ja', 'nl', 'pl', 'pt'])
      expect(res.text).toContain(`href="?lang=${code}"`);
    expect(res.text).toMatch(/href="\?lang=ja" lang="ja" hreflang="ja" aria-current="true">日本語</);
    expect(res.text).toContain('>Deutsch<');
  });

  it('When an error page is shown to a German visitor, then it is in German', async () => {
    const res = await ctx.request().get('/f/nosuchcode1234').set('Accept-Language', 'de').set('Accept', 'text/html');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Seite nicht gefunden');
    expect(htmlLang(res.text)).toEqual(['de', 'ltr']);
  });
});
