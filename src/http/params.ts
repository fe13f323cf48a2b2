import type { PageRequest } from '../db/paging.js';
import { uuid, type SortOrder } from '../shared/schemas.js';
import { notFound } from '../errors/http-error.js';

/** A malformed id cannot name anything: it is a 404 like an unknown one, never a 500 from the database. */
export function idParam(value: string | string[] | undefined, what: string): string {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) throw notFound(what);
  return parsed.data.toLowerCase();
}

/** Page-based envelope of the versioned family (spec 4.1). */
export function pageEnvelope<T>(data: T[], total: number, page: number, limit: number) {
  return { data, total, page, limit };
}

/** Offset-based envelope of the business-scoped family (spec 4.5). */
export function offsetEnvelope<T>(data: T[], total: number, limit: number, offset: number) {
  return { data, total, limit, offset };
}

/** Either family's paging, as parsed: page/limit on /api/v1, limit/offset on /businesses. */
export type Paging = { page: number; limit: number } | { limit: number; offset: number };

const PAGING_KEYS = ['page', 'limit', 'offset', 'sort', 'order'] as const;

/** A list query without its paging and sort: its filter. */
export type FilterOf<Q> = Q extends unknown ? Omit<Q, (typeof PAGING_KEYS)[number]> : never;

/** A list query of either family, split into the window it asks for and its filter. */
export function listRequest<Q extends Paging & { sort: string; order: SortOrder }>(
  query: Q,
): { page: PageRequest<Q['sort']>; filter: FilterOf<Q> } {
  const { limit } = query;
  const offset = 'page' in query ? (query.page - 1) * limit : query.offset;
  const filter: Record<string, unknown> = { ...query };
  for (const key of PAGING_KEYS) delete filter[key];
  return { page: { sort: query.sort, order: query.order, limit, offset }, filter: filter as FilterOf<Q> };
}

/** The family's envelope around one window of rows: page-based or offset-based. */
export function envelopeOf<T>(paging: Paging, data: T[], total: number) {
  return 'page' in paging
    ? pageEnvelope(data, total, paging.page, paging.limit)
    : offsetEnvelope(data, total, paging.limit, paging.offset);
}
