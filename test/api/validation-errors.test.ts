import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { buildLocation, buildTenant } from '../support/factories.js';

const ctx = useTestApp();

describe('Validation errors as data', () => {
  it('When a suggestion is empty, then the 400 keeps its message and names the field and its code in errors', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: '  ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      code: 'VALIDATION_FAILED',
      message: 'Validation failed: content: must not be empty (white space and invisible characters do not count)',
    });
    expect(res.body.errors).toEqual([
      {
        field: 'content',
        code: 'required',
        message: 'must not be empty (white space and invisible characters do not count)',
      },
    ]);
  });

  it('When several fields are wrong, then each is an error with its own code and the values its words need', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'x'.repeat(2001), colour: 'red', customer_email: 'not an address' });
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(
      (res.body.errors as { field: string; code: string; params?: object }[]).map((e) => [e.field, e]),
    );
    expect(byField.content).toMatchObject({ code: 'too_long', params: { max: 2000 } });
    expect(byField.customer_email).toMatchObject({ code: 'invalid_email' });
    expect(byField.colour).toMatchObject({ code: 'unknown' });
  });

  it('When a service refuses a field (a location of another business), then it is a field error too', async () => {
    const t = await buildTenant(ctx.db);
    const elsewhere = await buildLocation(ctx.db);
    const res = await ctx
      .request()
      .post('/api/v1/suggestions')
      .set('X-API-Key', t.write)
      .send({ content: 'Coffee is cold', location_id: elsewhere.id });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed: location_id: not a location of this business');
    expect(res.body.errors).toEqual([
      { field: 'location_id', code: 'unknown_location', message: 'not a location of this business' },
    ]);
  });

  it('When a query parameter is wrong, then the 400 begins "Query failed:" and names the parameter in errors', async () => {
    const t = await buildTenant(ctx.db);
    const res = await ctx.request().get('/api/v1/suggestions?limit=500').set('X-API-Key', t.read);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_QUERY');
    expect(res.body.message).toMatch(/^Query failed: limit: /);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ field: 'limit', code: 'too_big', params: { max: 100 } }),
    ]);
  });

  it('When an Idempotency-Key replays a refusal, then its errors come back as they were', async () => {
    const t = await buildTenant(ctx.db);
    const send = () =>
      ctx
        .request()
        .post('/api/v1/suggestions')
        .set('X-API-Key', t.write)
        .set('Idempotency-Key', 'empty-content-once')
        .send({ content: '' });
    const first = await send();
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.errors).toEqual(first.body.errors);
    expect(first.body.errors).toEqual([expect.objectContaining({ field: 'content', code: 'required' })]);
  });
});
