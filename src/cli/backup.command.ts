import { z } from 'zod';
import { backup } from '../db/backup.js';
import { restore } from '../db/restore.js';
import { command, type Command } from './command.js';

const file = z.string().min(1, 'a file name is required');

/**
 * `admin backup` and `admin restore`: a backup of the configured database (embedded or PostgreSQL)
 * while the server runs, and its restore into an empty one. Together they are the move from the
 * embedded database to PostgreSQL (docs/operations.md). Neither migrates first: a backup records the
 * schema it was taken at, and a restore migrates to it, loads, then migrates the rest.
 */
export const BACKUP_COMMANDS: Record<string, Command> = {
  backup: command({
    usage: 'backup --out FILE',
    summary: 'Write a consistent backup of the database to FILE (gzip’d JSON lines), while the server runs',
    options: { out: { type: 'string', description: 'the file to write; it must not exist', required: true } },
    schema: z.object({ out: file }),
    migrates: false,
    async run(db, input) {
      const started = Date.now();
      const summary = await backup(db.pool, input.out);
      return { file: input.out, ...summary, seconds: (Date.now() - started) / 1000 };
    },
  }),
  restore: command({
    usage: 'restore --from FILE',
    summary: 'Load a backup into an empty database (DATABASE_URL, or the embedded one in DATA_DIR)',
    options: { from: { type: 'string', description: 'the backup file', required: true } },
    schema: z.object({ from: file }),
    migrates: false,
    async run(db, input) {
      const started = Date.now();
      const summary = await restore(db.pool, input.from);
      return { file: input.from, ...summary, seconds: (Date.now() - started) / 1000 };
    },
  }),
};
