import type { z } from 'zod';
import { HttpError } from '../errors/http-error.js';
import { findMalformedText } from '../shared/unicode.js';

function describe(error: z.ZodError, noun: string): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown ${noun}(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
      const path = issue.path.length > 0 ? issue.path.join('.') : '(body)';
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Text that is not valid Unicode (a lone surrogate, or bytes that were not UTF-8) in any field, key
 * or parameter: the one rule, checked before any schema so no field can forget it.
 */
function malformedText(input: unknown): string | undefined {
  const path = findMalformedText(input);
  if (!path) return undefined;
  const where = path.length > 0 ? path.join('.') : '(body)';
  return `${where}: must be valid Unicode text (it holds a lone surrogate or bytes that are not UTF-8)`;
}

/** Parses query parameters; failures are 400s whose message begins `Query failed:` (spec 7). */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const malformed = malformedText(query);
  if (malformed) throw new HttpError(400, `Query failed: ${malformed}`, 'INVALID_QUERY');
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) {
    throw new HttpError(400, `Query failed: ${describe(parsed.error, 'parameter')}`, 'INVALID_QUERY');
  }
  return parsed.data;
}

/** Parses a JSON body; failures are 400s naming each offending field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const malformed = malformedText(body);
  if (malformed) throw new HttpError(400, `Validation failed: ${malformed}`, 'VALIDATION_FAILED');
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    throw new HttpError(400, `Validation failed: ${describe(parsed.error, 'field')}`, 'VALIDATION_FAILED');
  }
  return parsed.data;
}
