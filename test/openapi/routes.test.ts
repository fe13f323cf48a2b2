import type { Express } from 'express';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { noContent } from '../../src/http/reply.js';
import { defineRoute, RouteTable, type Route, type Services } from '../../src/http/route.js';
import { apiDocument, ROUTES } from '../../src/routes.js';
import { capturingLogger } from '../support/app.js';

/** What router 2 keeps of a layer: enough to walk the tree of routers and routes. */
interface Layer {
  rawPath?: string | RegExp;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** `METHOD /path` of every route Express would answer, with its full path. */
function expressRoutes(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      // a family's own root (`GET /businesses/:business_id`) is its router's `/`
      const path = prefix && layer.route.path === '/' ? prefix : `${prefix}${layer.route.path}`;
      return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
    }
    if (!layer.handle.stack) return [];
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    return expressRoutes(layer.handle.stack, `${prefix}${mount}`);
  });
}

/** The pages of the interactive reference and the public feedback page: HTML and assets, not operations of the API. */
const PAGES = [
  'GET /docs',
  'GET /favicon.ico',
  'GET /docs/init.js',
  'GET /docs/a11y.css',
  'GET /docs/:asset',
  'GET /',
  'GET /f/:code',
  'POST /f/:code',
  'GET /f/:code/s/:id',
  'POST /f/:code/votes/:id',
  'POST /f/:code/follow/:id',
  'GET /f/:code/roadmap',
  'GET /f/:code/changelog',
  'GET /f/:code/changelog.atom',
  'GET /f/:code/changelog/:id',
  'GET /follow/confirm',
  'POST /follow/confirm',
  'GET /follow/unsubscribe',
  'POST /follow/unsubscribe',
  'GET /brand/:file',
  'GET /brand/:business_id/:file',
];
/** The feedback page's stylesheet and script, named by their content's hash; the dashboard's pages (under /app). */
const isPage = (route: string) =>
  PAGES.includes(route) ||
  /^GET \/assets\/page\.[0-9a-f]{12}\.(css|js)$/.test(route) ||
  /^(GET|POST) \/app(\/|$)/.test(route);

// The app is only built and walked, never asked anything: no database is needed.
const db = { mode: 'embedded', pool: {}, ping: () => Promise.resolve(true) } as unknown as Database;
const app: Express = createApp({ db, logger: capturingLogger().logger });
const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;

describe('routes and the document', () => {
  it('When the Express router is walked, then every route it answers is an operation of the document and the reverse', () => {
    const served = expressRoutes(stack);
    const documented = Object.entries(apiDocument().paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(served.filter((route) => !isPage(route)).sort()).toEqual(documented.sort());
    expect(served).toEqual(expect.arrayContaining(PAGES));
    // each registered once
    expect(new Set(served).size).toBe(served.length);
  });

  it('When every declared route is listed, then each has an operation id of its own', () => {
    const ids = ROUTES.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ROUTES.length).toBe(Object.values(apiDocument().paths).flatMap((methods) => Object.keys(methods)).length);
  });

  it('When a declared route is never mounted, then building the app fails instead of serving less than the document', () => {
    const orphan: Route = defineRoute({
      method: 'get',
      path: '/nowhere/thing',
      operationId: 'orphan',
      summary: 'x',
      tag: 'x',
      guard: 'open',
      responses: [{ status: 200, description: 'x' }],
      handler: () => noContent(),
    });
    const table = new RouteTable([orphan], {} as Services);
    table.mount(['api_key'], '/api/v1');
    expect(() => table.assertAllMounted()).toThrow('GET /nowhere/thing');
  });

  it('When a route with an :id names no resource, then declaring it fails', () => {
    expect(() =>
      defineRoute({
        method: 'get',
        path: '/api/v1/things/:id',
        operationId: 'thing',
        summary: 'x',
        tag: 'x',
        guard: 'api_key',
        responses: [{ status: 200, description: 'x' }],
        handler: () => noContent(),
      }),
    ).toThrow('resource');
  });
});
