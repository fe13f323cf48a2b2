import { conflict, type FieldError } from '../errors/http-error.js';

/** The PostgreSQL error code of a unique index or constraint refusing a row. */
const PG_UNIQUE_VIOLATION = '23505';

function hasPgCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/**
 * The one place a unique violation becomes a domain conflict: `work` rejected by a unique index or
 * constraint is a 409 with `message`, and the field it is about (a name taken) in its `errors`; any
 * other outcome passes through.
 */
export async function withUniqueConflict<T>(work: Promise<T>, message: string, field?: FieldError): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (hasPgCode(err, PG_UNIQUE_VIOLATION)) throw conflict(message, field ? [field] : undefined);
    throw err;
  }
}

/**
 * `work`'s result, or null when one of `constraints` (unique indexes) refused its row: a race the
 * caller settles by reading what won it. Any other error passes through.
 */
export async function nullOnUniqueViolation<T>(work: Promise<T>, constraints: readonly string[]): Promise<T | null> {
  try {
    return await work;
  } catch (err) {
    if (hasPgCode(err, PG_UNIQUE_VIOLATION) && constraints.includes((err as { constraint?: string }).constraint ?? ''))
      return null;
    throw err;
  }
}
