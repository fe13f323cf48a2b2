import { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { operationsOf, runsOperations } from '../../src/dashboard/dashboard.forms.js';
import { DASHBOARD_FORMS } from '../../src/dashboard/dashboard.pages.js';
import { ROUTES } from '../../src/routes.js';
import { hasMessage } from '../../src/shared/messages.js';
import { useTestApp } from '../support/app.js';
import { businessRouteNames } from '../support/role-matrix.js';

/** A router layer as Express 5's router keeps it: its mount path, its route, or a router it mounts. */
interface Layer {
  rawPath?: unknown;
  route?: { path: string; methods: Record<string, boolean>; stack: Layer[] };
  handle?: { stack?: Layer[] };
}

/** Every post a router (and the routers it mounts) answers: its path and the handler that answers it. */
function postsOf(stack: Layer[]): { path: string; handler: unknown }[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      return layer.route.methods.post ? [{ path: layer.route.path, handler: layer.route.stack.at(-1)?.handle }] : [];
    }
    return layer.handle?.stack ? postsOf(layer.handle.stack) : [];
  });
}

/** The posts that name no operation, or one that is not declared. */
function undeclaredPosts(stack: Layer[]): string[] {
  const declared = new Set(ROUTES);
  return postsOf(stack)
    .filter(({ handler }) => {
      const runs = operationsOf(handler);
      return runs.length === 0 || !runs.every((route) => declared.has(route));
    })
    .map(({ path }) => path);
}

const ctx = useTestApp();

/** The dashboard's router as the app mounts it, at /app. */
function dashboardStack(): Layer[] {
  const appStack = (ctx.app as unknown as { router: { stack: Layer[] } }).router.stack;
  const mounted = appStack.find((layer) => layer.rawPath === '/app' && layer.handle?.stack);
  if (!mounted?.handle?.stack) throw new Error('no router mounted at /app');
  return mounted.handle.stack;
}

/**
 * The page table against the route table: a dashboard form runs a declared operation of the business
 * family, so its access, parsing and 404 are the route's, and the role matrix
 * (test/api/business-access.test.ts), which has a row for every such route, covers the form too.
 */
describe('the dashboard forms and the declared routes', () => {
  it('When the forms are listed, then each runs a declared operation of the business family', () => {
    const declared = new Set(ROUTES);
    const undeclared = DASHBOARD_FORMS.filter((form) => !declared.has(form.runs)).map((form) => form.path);
    expect(undeclared).toEqual([]);
    expect(DASHBOARD_FORMS.filter((form) => form.runs.guard !== 'business').map((form) => form.path)).toEqual([]);
    const inMatrix = new Set(businessRouteNames(ROUTES));
    expect(businessRouteNames(DASHBOARD_FORMS.map((form) => form.runs)).every((name) => inMatrix.has(name))).toBe(true);
  });

  it('When a form names its fields, then every label is a message of the catalogue', () => {
    const missing = DASHBOARD_FORMS.flatMap((form) => Object.values(form.labels ?? {})).filter(
      (key) => !hasMessage(key),
    );
    expect(missing).toEqual([]);
  });

  it('When the dashboard is mounted, then every post it answers, before a session or in one, names a declared operation', () => {
    const posts = postsOf(dashboardStack()).map(({ path }) => path);
    // The walk reaches the forms before a session, the user's own and the business's (not a vacuous pass).
    for (const path of ['/setup', '/sign-up', '/sign-up/confirm', '/sign-in', '/sign-out', '/forgot-password']) {
      expect(posts).toContain(path);
    }
    for (const path of ['/reset-password', '/accept-invite', ...DASHBOARD_FORMS.map((form) => form.path)]) {
      expect(posts).toContain(path);
    }
    expect(undeclaredPosts(dashboardStack())).toEqual([]);
  });

  it('When a post is wired by hand without naming an operation, then the walk reports it', () => {
    const inner = Router();
    inner.post('/hand-wired', (_req, res) => void res.end());
    inner.post(
      '/named',
      runsOperations((_req, res) => void res.end(), ROUTES[0]!),
    );
    inner.post(
      '/named-undeclared',
      runsOperations((_req, res) => void res.end(), { ...ROUTES[0]! }),
    );
    const outer = Router();
    outer.use(inner);
    expect(undeclaredPosts((outer as unknown as { stack: Layer[] }).stack)).toEqual([
      '/hand-wired',
      '/named-undeclared',
    ]);
  });
});
