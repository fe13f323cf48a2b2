import { uuid } from '../shared/schemas.js';
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
