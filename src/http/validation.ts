import type { z } from 'zod';
import { HttpError } from './errors.js';

function describe(error: z.ZodError, noun: string): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown ${noun}(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
      const path = issue.path.length > 0 ? issue.path.join('.') : '(body)';
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** Parses query parameters; failures are 400s whose message begins `Query failed:` (spec 7). */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) {
    throw new HttpError(400, `Query failed: ${describe(parsed.error, 'parameter')}`, 'INVALID_QUERY');
  }
  return parsed.data;
}

/** Parses a JSON body; failures are 400s naming each offending field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    throw new HttpError(400, `Validation failed: ${describe(parsed.error, 'field')}`, 'VALIDATION_FAILED');
  }
  return parsed.data;
}
