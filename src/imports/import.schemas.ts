import { z } from 'zod';
import { IMPORT_KINDS, mappableFields } from './import.rows.js';

const flag = z
  .enum(['true', 'false'])
  .transform((value) => value === 'true')
  .default(false);

/** `columns`: JSON in the query, each of our fields to the header that holds it in the file. */
const mapping = z
  .string()
  .max(4000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object', params: { code: 'invalid_json' } });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string().max(100), z.string().min(1).max(200)));

/** Spec of POST .../imports (issue 44): what the file holds, what to do with bad rows, and whether to write. */
export const importQuery = z
  .strictObject({
    kind: z.enum(IMPORT_KINDS),
    on_error: z.enum(['all', 'skip']).default('all'),
    dry_run: flag,
    columns: mapping.optional(),
  })
  .superRefine((query, ctx) => {
    const fields = mappableFields(query.kind);
    for (const field of Object.keys(query.columns ?? {})) {
      if (!fields.includes(field)) {
        ctx.addIssue({
          code: 'custom',
          path: ['columns'],
          message: `names no field of ${query.kind}: ${field} (one of ${fields.join(', ')})`,
          params: { code: 'unknown_field' },
        });
      }
    }
  })
  .transform((query) => ({
    kind: query.kind,
    onError: query.on_error,
    dryRun: query.dry_run,
    columns: query.columns ?? {},
  }));

export type ImportRequest = z.output<typeof importQuery>;
