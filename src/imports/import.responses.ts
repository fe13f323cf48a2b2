import { z } from 'zod';
import { IMPORT_KINDS } from './import.rows.js';

const rowErrorSchema = z.object({
  row: z.int().min(2).meta({ description: 'The CSV record, 1-based, the header being row 1' }),
  column: z.string().meta({ description: "The file's header of the field at fault" }),
  code: z
    .string()
    .meta({ description: 'Why, for a program or a translation: `required`, `too_long`, `invalid_choice`...' }),
  message: z.string().meta({ description: 'Why, in English' }),
});

/** What an import did, or would do (a dry run), or why it wrote nothing (a 422). */
export const importReportSchema = z
  .object({
    kind: z.enum(IMPORT_KINDS),
    dry_run: z.boolean(),
    rows: z.int().min(0).meta({ description: 'Records below the header' }),
    created: z.int().min(0).meta({ description: 'Items written (a dry run: that would be); 0 on a 422' }),
    skipped: z
      .int()
      .min(0)
      .meta({ description: 'Rows the business already has from an earlier import, or by their export `id`' }),
    failed: z.int().min(0).meta({ description: 'Rows refused for their errors' }),
    unknown_columns: z.array(z.string()).meta({ description: 'Headers no field reads and no mapping names: ignored' }),
    errors: z.array(rowErrorSchema).meta({ description: 'Each refused row and column (the first 1,000)' }),
  })
  .meta({
    id: 'ImportReport',
    description: 'What a CSV import did',
    examples: [
      {
        kind: 'suggestions',
        dry_run: false,
        rows: 3,
        created: 0,
        skipped: 1,
        failed: 1,
        unknown_columns: ['Internal note'],
        errors: [{ row: 3, column: 'Details', code: 'required', message: 'must not be empty' }],
      },
    ],
  });
