import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';

const ctx = useTestApp();

const policy = (header: string) =>
  Object.fromEntries(
    header.split(';').map((directive) => {
      const [name, ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  );

describe('GET /docs', () => {
  it('When opened, then it is a page that loads Swagger UI from this server only', async () => {
    const res = await ctx.request().get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<div id="swagger-ui"></div>');
    expect(res.text).toContain('<script src="/docs/swagger-ui-bundle.js"></script>');
    expect(res.text).not.toMatch(/(https?:)?\/\/[a-z]/i);
    // no inline script: the page works under script-src 'self'
    expect(res.text).not.toMatch(/<script>/);
  });

  it('When opened, then its policy allows this origin only, without upgrading to https', async () => {
    const csp = policy((await ctx.request().get('/docs')).headers['content-security-policy'] as string);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(Object.values(csp).flat()).not.toContain('https:');
    expect(csp).not.toHaveProperty('upgrade-insecure-requests');
    // the rest of the service keeps helmet's default policy
    const api = (await ctx.request().get('/health')).headers['content-security-policy'] as string;
    expect(api).toContain('upgrade-insecure-requests');
  });

  it('When its script starts Swagger UI, then it reads this document, keeps keys and lets calls be tried', async () => {
    const res = await ctx.request().get('/docs/init.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.text).toContain("url: '/api/v1/openapi.json'");
    expect(res.text).toContain('persistAuthorization: true');
    expect(res.text).toContain('tryItOutEnabled: true');
    expect(res.text).toContain('validatorUrl: null');
  });

  it('When its assets are fetched, then they come from the swagger-ui-dist package; nothing else is served', async () => {
    const script = await ctx.request().get('/docs/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript|^text\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=3600');
    const css = await ctx.request().get('/docs/swagger-ui.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    for (const path of ['/docs/index.html', '/docs/swagger-initializer.js', '/docs/package.json']) {
      expect((await ctx.request().get(path)).status).toBe(404);
    }
  });
});
