import type { Route } from '../../src/http/route.js';

/**
 * The role matrix (test/api/business-access.test.ts) has a row per route of the business family,
 * named `GET /suggestions/:id` (the path below `/businesses/:business_id`), optionally followed by a
 * remark in parentheses. These say which declared routes have no row, and which rows name no route.
 */
const BUSINESS = '/businesses/:business_id';

/** Every route the business family declares, by the name its rows carry. */
export const businessRouteNames = (routes: readonly Route[]): string[] =>
  routes
    .filter((route) => route.guard === 'business')
    .map((route) => `${route.method.toUpperCase()} ${route.path.slice(BUSINESS.length) || '/'}`);

/** The declared route a row calls: its name without the parenthesised remark. */
const routeOf = (row: string) => row.replace(/ \(.*\)$/, '');

export function routesWithoutRow(routes: readonly Route[], rows: readonly string[]): string[] {
  const covered = new Set(rows.map(routeOf));
  return businessRouteNames(routes).filter((route) => !covered.has(route));
}

export function rowsWithoutRoute(routes: readonly Route[], rows: readonly string[]): string[] {
  const declared = new Set(businessRouteNames(routes));
  return rows.filter((row) => !declared.has(routeOf(row)));
}
