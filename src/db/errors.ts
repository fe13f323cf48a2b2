import { conflict, type FieldError } from '../errors/http-error.js';

/** The PostgreSQL error code of a unique index or constraint refusing a row. */
const PG_UNIQUE_VIOLATION = '23505';

/** The unique index or constraint that refused `err`'s row, or null when `err` is no unique violation. */
function refusingKey(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const { code, constraint } = err as { code?: unknown; constraint?: unknown };
  return code === PG_UNIQUE_VIOLATION ? (typeof constraint === 'string' ? constraint : '') : null;
}

/** `work`'s result, or what `settle` makes of a unique violation it answers for; any other error passes through. */
async function settlingUnique<T, U>(work: Promise<T>, settle: (key: string) => U | undefined): Promise<T | U> {
  try {
    return await work;
  } catch (err) {
    const key = refusingKey(err);
    const settled = key === null ? undefined : settle(key);
    if (settled === undefined) throw err;
    return settled;
  }
}

/**
 * The one place a unique violation becomes a domain conflict: `work` rejected by a unique index or
 * constraint is a 409 with `message`, and the field it is about (a name taken) in its `errors`; any
 * other outcome passes through.
 */
export function withUniqueConflict<T>(work: Promise<T>, message: string, field?: FieldError): Promise<T> {
  return settlingUnique(work, () => {
    throw conflict(message, field ? [field] : undefined);
  });
}

/**
 * `work`'s result, or null when one of `constraints` (unique indexes) refused its row: a race the
 * caller settles by reading what won it. Any other error passes through.
 */
export function nullOnUniqueViolation<T>(work: Promise<T>, constraints: readonly string[]): Promise<T | null> {
  return settlingUnique(work, (key) => (constraints.includes(key) ? null : undefined));
}
