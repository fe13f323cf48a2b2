import type { z } from 'zod';
import type pg from 'pg';
import type { ReadFor, ReadReplicas } from '../db/replicas.js';
import type { Reply } from './reply.js';
import { defineRoute, type Method, type Route, type RouteContext, type RouteDoc, type RouteSpec } from './route.js';

/**
 * The two families a business's resources are served in: `/api/v1` with an API key, paged with
 * page/limit (spec 4.1), and `/businesses/{business_id}` with a key or a member's session, paged with
 * limit/offset (spec 4.5). They share services; they differ in how the business is found, in their
 * paging, and in what they show.
 */
export const FAMILIES = {
  v1: { prefix: '/api/v1', guard: 'api_key' },
  business: { prefix: '/businesses/:business_id', guard: 'business' },
} as const;

export type Family = keyof typeof FAMILIES;
type FamilyGuard = (typeof FAMILIES)[Family]['guard'];

/** What a declaration in both families says once, or each family for itself. */
type DocPart = Partial<Omit<RouteDoc, 'method' | 'path' | 'guard' | 'query' | 'body'>>;

/** One family's part: its operation, its schemas and, where the two differ, its presenter. */
export interface FamilyPart<Q, B, P> extends DocPart {
  operationId: string;
  query?: Q & z.ZodType;
  body?: B & z.ZodType;
  /** Given to the handler as `present`. */
  present?: P;
}

/** The handler's context: either family's, with the family it serves and that family's presenter. */
export interface FamilyContext<Q, B, P> extends RouteContext<FamilyGuard, Q, B> {
  family: Family;
  present: P;
}

export interface FamiliesSpec<Q1, B1, P1, Q2, B2, P2> extends DocPart {
  method: Method;
  /** The path below the family's prefix: `/suggestions/:id`. */
  path: string;
  v1: FamilyPart<Q1, B1, P1>;
  business: FamilyPart<Q2, B2, P2>;
  handler: (context: FamilyContext<Q1 | Q2, B1 | B2, P1 | P2>) => Promise<Reply> | Reply;
}

/**
 * One route declared for both families: what they share once, what differs (operation ids, summaries,
 * schemas, presenters) in `v1` and `business`. Answers the two routes, for each family's feature.
 */
export function defineFamilies<
  Q1 = undefined,
  B1 = undefined,
  P1 = undefined,
  Q2 = undefined,
  B2 = undefined,
  P2 = undefined,
>(spec: FamiliesSpec<Q1, B1, P1, Q2, B2, P2>): Record<Family, Route> {
  const { v1, business, path, handler, ...shared } = spec;
  const declare = <Q, B, P>(family: Family, { present, ...part }: FamilyPart<Q, B, P>): Route => {
    const { prefix, guard } = FAMILIES[family];
    const route = { ...shared, ...part, path: `${prefix}${path}`, guard };
    if (!route.summary || !route.tag || !route.responses) {
      throw new Error(`${route.path}: a summary, a tag and responses, shared or per family`);
    }
    return defineRoute({
      ...route,
      handler: (context) => handler({ ...context, family, present } as FamilyContext<Q1 | Q2, B1 | B2, P1 | P2>),
    } as RouteSpec<FamilyGuard, Q, B>);
  };
  return { v1: declare('v1', v1), business: declare('business', business) };
}

/**
 * A list's rows, read where they may be (docs/decisions.md, "Read replicas"): a search (`q`) in either
 * family and the dashboard family's lists on a replica that may answer the business; the /api/v1
 * lists without `q` on the request's own connection (`db`).
 */
export function readList<T>(
  reads: ReadReplicas,
  business: ReadFor,
  list: { family: Family; q: string | undefined; db: pg.Pool },
  work: (pool: pg.Pool) => Promise<T>,
): Promise<T> {
  const kind = list.q !== undefined ? 'search' : list.family === 'business' ? 'dashboard' : undefined;
  return kind ? reads.read(business, kind, work) : work(list.db);
}
