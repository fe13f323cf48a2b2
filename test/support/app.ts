import { Writable } from 'node:stream';
import type { Express } from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import type { Logger } from 'pino';
import { createApp } from '../../src/app.js';
import type { Config } from '../../src/config/config.js';
import type { Database } from '../../src/db/database.js';
import { createRateLimiters, type RateLimiters, type RateLimitOptions } from '../../src/http/rate-limit.js';
import { createLogger } from '../../src/config/logger.js';
import { checked, useContractCheck } from './contract.js';
import { openEmptyTestDatabase, openTestDatabase } from './database.js';

export interface TestContext {
  readonly db: Database;
  readonly app: Express;
  /** Every log line the app wrote, as text. */
  readonly logs: string[];
  /** An agent whose every response is checked against the OpenAPI document (test/support/contract.ts). */
  request(): supertest.Agent;
}

/** A logger whose every line is kept, as text. */
export function capturingLogger(): { logger: Logger; logs: string[] } {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  return { logger: createLogger('info', sink), logs };
}

/**
 * One app and database per test file, closed after it; tests build their own businesses. Each
 * test fails if a response it received does not match the OpenAPI document.
 */
export function useTestApp(options: { ownDatabase?: boolean } = {}): TestContext {
  useContractCheck();
  const { logger, logs } = capturingLogger();
  let db: Database | undefined;
  let app: Express | undefined;

  beforeAll(async () => {
    // A file whose workers act on every business's rows (runDue counting what it sent) needs a database
    // no other file writes to: on PostgreSQL one of its own; the embedded database is the file's anyway.
    db = options.ownDatabase ? await openEmptyTestDatabase() : await openTestDatabase();
    // Limits are tested on apps of their own (useOtherApps); here they must never get in the way.
    const rateLimiters = createRateLimiters({
      limit: 100_000,
      failedAuthLimit: 100_000,
      pageWriteLimit: 100_000,
      pageReadLimit: 100_000,
      logger,
    });
    app = createApp({ db, logger, rateLimiters });
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
      return checked(supertest.agent(app));
    },
  };
}

export interface OtherApp {
  readonly app: Express;
  readonly logs: string[];
  request(): supertest.Agent;
}

export type OtherAppOptions = Partial<Omit<RateLimitOptions, 'logger'>> & { config?: Partial<Config> };

/**
 * Makes more apps on the file's database, each with its own rate limiters (60 per minute unless
 * told otherwise), as separate instances of the service would be; their limiters close after the file.
 */
export function useOtherApps(ctx: TestContext): (options?: OtherAppOptions) => OtherApp {
  const limiters: RateLimiters[] = [];
  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
  });
  return ({ config, ...rateLimit } = {}) => {
    const { logger, logs } = capturingLogger();
    const rateLimiters = createRateLimiters({ limit: 60, ...rateLimit, logger });
    limiters.push(rateLimiters);
    const app = createApp({ db: ctx.db, logger, config, rateLimiters });
    return { app, logs, request: () => checked(supertest.agent(app)) };
  };
}

/** `METHOD /path` of the request behind a supertest response, for assertion messages. */
export function requestLine(res: supertest.Response): string {
  const req = (res as unknown as { req?: { method?: string; path?: string } }).req;
  return `${req?.method ?? '?'} ${req?.path ?? '?'}`;
}
