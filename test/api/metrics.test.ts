import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRateLimiters } from '../../src/http/rate-limit.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { capturingLogger, useTestApp } from '../support/app.js';
import { buildTenant } from '../support/factories.js';

const ctx = useTestApp();

/** An app of its own with metrics on, and a per-credential limit of `limit`. */
function appWithMetrics(limit = 1000) {
  const { logger } = capturingLogger();
  const metrics = new Metrics(ctx.db.pool);
  const rateLimiters = createRateLimiters({ limit, failedAuthLimit: 1000, logger });
  onTestFinished(() => rateLimiters.close());
  const app = createApp({ db: ctx.db, logger, rateLimiters, metrics });
  return { metrics, request: () => supertest(app) };
}

/** The value of one series in the text format, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('Prometheus metrics', () => {
  it('When requests are answered, then they are counted by route template and status class, never by raw path', async () => {
    const t = await buildTenant(ctx.db);
    const { metrics, request } = appWithMetrics();
    const created = await request().post('/api/v1/suggestions').set('X-API-Key', t.write).send({ content: 'Metrics!' });
    expect(created.status).toBe(201);
    await request().get(`/api/v1/suggestions/${created.body.id}`).set('X-API-Key', t.read);
    await request().get(`/api/v1/suggestions/${created.body.id}`).set('X-API-Key', t.read);
    await request().get('/api/v1/suggestions/0190c7f0-0000-7000-8000-000000000000').set('X-API-Key', t.read);
    await request().get('/api/v1/suggestions').set('X-API-Key', 'fbk_wrong');
    await request().get('/no/such/thing');
    const text = await metrics.registry.metrics();

    const count = (route: string, status: string, method = 'GET') =>
      sample(text, `http_request_duration_seconds_count{method="${method}",route="${route}",status_class="${status}"}`);
    expect(count('/api/v1/suggestions', '2xx', 'POST')).toBe(1);
    expect(count('/api/v1/suggestions/:id', '2xx')).toBe(2);
    expect(count('/api/v1/suggestions/:id', '4xx')).toBe(1);
    expect(count('/api/v1/*', '4xx')).toBe(1);
    expect(count('unmatched', '4xx')).toBe(1);
    expect(text).not.toContain(created.body.id);
    expect(text).not.toContain('/no/such/thing');
  });

  it('When lists are served twice and a limit is exceeded, then cache hits and misses and the refusal are counted', async () => {
    const t = await buildTenant(ctx.db);
    const { metrics, request } = appWithMetrics(2);
    for (let i = 0; i < 3; i++) await request().get('/api/v1/suggestions').set('X-API-Key', t.read);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'list_cache_lookups_total{outcome="miss"}')).toBe(1);
    expect(sample(text, 'list_cache_lookups_total{outcome="hit"}')).toBe(1);
    expect(sample(text, 'list_cache_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'rate_limit_refusals_total{route="/api/v1/*"}')).toBe(1);
  });

  it('When scraped, then the database pool and the event-loop lag are reported', async () => {
    const { metrics } = appWithMetrics();
    const text = await metrics.registry.metrics();
    for (const state of ['in_use', 'idle', 'waiting']) {
      expect(sample(text, `db_pool_connections{state="${state}"}`)).toBeGreaterThanOrEqual(0);
    }
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('When served, then GET /metrics on the metrics port answers the text format and nothing else is there', async () => {
    const { metrics } = appWithMetrics();
    const server = metrics.listen(0, '127.0.0.1');
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('http_request_duration_seconds');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('When metrics are off (the default), then the API itself has no /metrics', async () => {
    const res = await ctx.request().get('/metrics');
    expect(res.status).toBe(404);
  });
});
