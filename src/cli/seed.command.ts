import { z } from 'zod';
import { seedBusiness } from '../seed/seed.service.js';
import { queryInt, uuid } from '../shared/schemas.js';
import { command, requireBusiness, type Command } from './command.js';
import { progressBar } from './progress.js';

/** A row count on the command line: digits only, up to ten million. */
const rowCount = queryInt(0, 10_000_000);

/** `admin -- seed ...`. */
export const SEED_COMMANDS: Record<string, Command> = {
  seed: command({
    usage: 'seed --business ID --suggestions N [--issues M] [--comments K]',
    summary: 'Insert realistic generated data for a business (load tests, demos); prints a summary',
    options: {
      business: { type: 'string', description: 'business id', required: true },
      suggestions: { type: 'string', description: 'suggestions to insert', required: true },
      issues: { type: 'string', description: 'issues to insert, default 0' },
      comments: { type: 'string', description: 'comments spread over the inserted suggestions and issues, default 0' },
    },
    schema: z
      .object({
        business: uuid,
        suggestions: rowCount,
        issues: rowCount.default(0),
        comments: rowCount.default(0),
      })
      .refine((input) => input.comments === 0 || input.suggestions + input.issues > 0, {
        message: 'comments need suggestions or issues to be attached to',
        path: ['comments'],
      }),
    async run(db, input) {
      await requireBusiness(db, input.business);
      // Progress is for a person watching: only on a terminal, and never on stdout (the JSON summary).
      const bar = process.stderr.isTTY ? progressBar(process.stderr, 'seeding') : undefined;
      const summary = await seedBusiness(db.pool, input.business, input, {
        onProgress: bar && ((done, total) => bar.update(done, total)),
      });
      bar?.finish();
      // A bulk load leaves the planner's statistics behind. Autovacuum (or the embedded server's
      // maintenance) catches up within a minute; a demo or benchmark started right after need not wait.
      await db.pool.query('ANALYZE suggestions, issues, comments');
      return summary;
    },
  }),
};
