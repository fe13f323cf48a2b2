import { Writable } from 'node:stream';
import type { Express } from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { openTestDatabase } from './database.js';

export interface TestContext {
  readonly db: Database;
  readonly app: Express;
  /** Every log line the app wrote, as text. */
  readonly logs: string[];
  request(): supertest.Agent;
}

/** One app and database per test file, closed after it; tests build their own businesses. */
export function useTestApp(): TestContext {
  const logs: string[] = [];
  let db: Database | undefined;
  let app: Express | undefined;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });

  beforeAll(async () => {
    db = await openTestDatabase();
    app = createApp({ db, logger: createLogger('info', sink) });
  });
  afterAll(async () => {
    await db?.close();
  });

  return {
    get db() {
      if (!db) throw new Error('database not open yet');
      return db;
    },
    get app() {
      if (!app) throw new Error('app not created yet');
      return app;
    },
    logs,
    request() {
      if (!app) throw new Error('app not created yet');
      return supertest.agent(app);
    },
  };
}
