import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/http/route.js';
import { ROUTES } from '../../src/routes.js';

/**
 * The recipe's silent step: a `*.routes.ts` whose feature is not listed in `FEATURES` (src/routes.ts)
 * typechecks, lints and passes every test, and serves nothing. This reads every `src/<folder>/*.routes.ts`,
 * finds the routes it exports (a Route, a Feature's routes, defineFamilies' pair) and names each that
 * the route table lacks, and each routes file that exports no route at all.
 */
const SRC = new URL('../../src/', import.meta.url).pathname;

/** Routes files that declare no route: Express pages that app.ts mounts itself. */
const PAGES_MOUNTED_BY_APP = ['openapi/openapi.routes.ts'];

const isRoute = (value: unknown): value is Route =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Route).handle === 'function' &&
  typeof (value as Route).operationId === 'string';

/** The declared routes an export holds: itself, a Feature's `routes`, or the values of a family pair. */
function routesIn(value: unknown): Route[] {
  if (isRoute(value)) return [value];
  if (typeof value !== 'object' || value === null) return [];
  const routes = (value as { routes?: unknown }).routes;
  if (Array.isArray(routes)) return routes.filter(isRoute);
  return Object.values(value).filter(isRoute);
}

const routesFiles = (src: string): string[] =>
  readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) =>
      readdirSync(join(src, folder.name))
        .filter((name) => name.endsWith('.routes.ts'))
        .map((name) => join(src, folder.name, name)),
    );

/** What the route table lacks of `src`'s routes files, one line each. */
async function unlisted(src: string, table: readonly Route[], pages: readonly string[]): Promise<string[]> {
  const listed = new Set(table);
  const gaps: string[] = [];
  for (const file of routesFiles(src)) {
    const name = relative(src, file);
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const routes = Object.values(module).flatMap(routesIn);
    if (routes.length === 0 && !pages.includes(name)) gaps.push(`${name}: exports no declared route`);
    for (const route of routes) {
      if (!listed.has(route)) gaps.push(`${name}: ${route.method.toUpperCase()} ${route.path} is not in FEATURES`);
    }
  }
  return gaps;
}

const trees: string[] = [];
afterAll(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true });
});

describe('Every routes file, against the route table', () => {
  it('When src/ is read, then every route its routes files export is listed in FEATURES', async () => {
    expect(await unlisted(SRC, ROUTES, PAGES_MOUNTED_BY_APP)).toEqual([]);
  });

  it('When a routes file is left out of FEATURES, then the check names its routes', async () => {
    // A throwaway feature under the system's temporary directory: the real src/ is never touched.
    const root = mkdtempSync(join(tmpdir(), 'fbk-routes-'));
    trees.push(root);
    mkdirSync(join(root, 'widgets'));
    const route =
      "{ method: 'get', path: '/businesses/:business_id/widgets', operationId: 'listWidgets', handle() {} }";
    writeFileSync(
      join(root, 'widgets', 'widget.routes.ts'),
      `export const widgetFeature = { tags: [], routes: [${route}] };\n`,
    );
    mkdirSync(join(root, 'empty'));
    writeFileSync(join(root, 'empty', 'empty.routes.ts'), 'export const nothing = 1;\n');
    expect(await unlisted(root, ROUTES, [])).toEqual([
      'empty/empty.routes.ts: exports no declared route',
      'widgets/widget.routes.ts: GET /businesses/:business_id/widgets is not in FEATURES',
    ]);
  });

  it('When a routes file declares no route, then it is one app.ts mounts itself', () => {
    const app = readFileSync(join(SRC, 'app.ts'), 'utf8');
    for (const page of PAGES_MOUNTED_BY_APP) expect(app).toContain(`./${page.replace(/\.ts$/, '.js')}`);
  });
});
