import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildTenant } from '../support/factories.js';

const ctx = useTestApp();

async function create(key: string, content: string) {
  const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', key).send({ content }).expect(201);
  return res.body as { id: string; language: string | null; sentiment: string; sentiment_lexicon: string | null };
}

describe('the language of what customers write', () => {
  it('When German and French feedback is created, then each is detected and scored in its own language', async () => {
    const t = await buildTenant(ctx.db);
    const german = await create(t.write, 'Das Essen war kalt und der Service schrecklich langsam.');
    expect(german).toMatchObject({ language: 'de', sentiment: 'negative', sentiment_lexicon: 'de' });
    const french = await create(t.write, 'La terrasse est magnifique, merci pour le nouveau menu !');
    expect(french).toMatchObject({ language: 'fr', sentiment: 'positive', sentiment_lexicon: 'fr' });
  });

  it('When English complaints say "far too hot" and "not working again", then they are negative', async () => {
    const t = await buildTenant(ctx.db);
    expect(await create(t.write, 'the terrace gets far too hot')).toMatchObject({
      language: 'en',
      sentiment: 'negative',
    });
    expect(await create(t.write, 'the coffee machine is not working again')).toMatchObject({
      language: 'en',
      sentiment: 'negative',
    });
  });

  it('When the language has no lexicon, then the suggestion says it was not scored: neutral, 0, sentiment_lexicon null', async () => {
    const t = await buildTenant(ctx.db);
    const italian = await create(t.write, 'Il caffè era freddo e il servizio davvero terribile, purtroppo.');
    expect(italian).toMatchObject({
      language: 'it',
      sentiment: 'neutral',
      sentiment_score: 0,
      sentiment_lexicon: null,
    });
  });

  it('When lists are read with lang=, then both families show only that language, and items carry it', async () => {
    const t = await buildTenant(ctx.db);
    const german = await create(t.write, 'Das Essen war kalt und der Service schrecklich langsam.');
    await create(t.write, 'La terrasse est magnifique, merci pour le nouveau menu !');
    const v1 = await ctx.request().get('/api/v1/suggestions?lang=de').set('X-API-Key', t.read).expect(200);
    expect(v1.body.data.map((item: { id: string }) => item.id)).toEqual([german.id]);
    expect(v1.body.data[0].language).toBe('de');
    const one = await ctx.request().get(`/api/v1/suggestions/${german.id}`).set('X-API-Key', t.read).expect(200);
    expect(one.body.language).toBe('de');
    const none = await ctx.request().get('/api/v1/suggestions?lang=ja').set('X-API-Key', t.read).expect(200);
    expect(none.body.data).toEqual([]);
  });
});
