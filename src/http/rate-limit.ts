import type { Request, RequestHandler } from 'express';
import {
  ipKeyGenerator,
  MemoryStore,
  rateLimit,
  type Options,
  type RateLimitInfo,
  type Store,
} from 'express-rate-limit';
import type { Logger } from 'pino';
import { HttpError } from './errors.js';
import { FallbackStore, SharedRedis, type RedisOptions } from './rate-limit-store.js';

export interface RateLimitOptions {
  /** Requests per window for one credential (an API key, or a dashboard user). */
  limit: number;
  /** Requests that fail authentication (401) per window from one client address. */
  failedAuthLimit?: number;
  /** Fixed window length; a minute in production, shorter in tests. */
  windowMs?: number;
  /** Shared counters for several instances; in memory per instance when absent. */
  redis?: RedisOptions;
  logger: Logger;
}

export interface RateLimiters {
  /** Around routes without a credential (sign-in, invites): only requests that end in 401 count, per address. */
  failedAuth: RequestHandler;
  /**
   * Wraps an authentication middleware: an address over its failure budget gets a 429 before any
   * credential is looked at, and only authentications that fail are counted, so any number of
   * concurrent valid requests from one address never use up the budget.
   */
  guardAuthentication(authenticate: RequestHandler): RequestHandler[];
  /** After authentication: every request counts against its credential. */
  perCredential: RequestHandler;
  /** Closes the Redis connection, if any. */
  close(): Promise<void>;
}

const DEFAULT_FAILED_AUTH_LIMIT = 30;

/** The counter a principal's requests are charged to: never the raw secret, only stable ids. */
function credentialKey(req: Request): string {
  const principal = req.principal;
  // Unreachable behind authentication; charging the address keeps a wiring mistake from being unlimited.
  if (!principal) return `ip:${ipKeyGenerator(req.ip ?? '')}`;
  switch (principal.kind) {
    case 'api_key':
      return `key:${principal.keyId}`;
    case 'user':
      return `user:${principal.userId}`;
  }
}

/** Whole seconds until the window resets: what Retry-After and the body's retryAfter both say. */
function secondsUntilReset(info: RateLimitInfo | undefined, windowMs: number): number {
  const resetAt = info?.resetTime?.getTime() ?? Date.now() + windowMs;
  return Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
}

/** The spec's 429 (section 7): `{error: {code, message, retryAfter}}` and a matching Retry-After header. */
function tooManyRequests(message: (retryAfter: number) => string): Options['handler'] {
  return (req, res, _next, options) => {
    const info = (req as unknown as Record<string, RateLimitInfo | undefined>)[options.requestPropertyName];
    const retryAfter = secondsUntilReset(info, options.windowMs);
    res.set('Retry-After', String(retryAfter));
    res.status(429).json({ error: { code: 'RATE_LIMIT_EXCEEDED', message: message(retryAfter), retryAfter } });
  };
}

function loggerFor(logger: Logger): Options['logger'] {
  return {
    warn: (err, message) => logger.warn({ err }, message ?? 'rate limiter warning'),
    error: (err, message) => logger.error({ err }, message ?? 'rate limiter error'),
  };
}

/**
 * The two limiters every authenticated router uses, around its authentication middleware:
 * `failedAuth`, then the authentication, then `perCredential` (which needs the principal).
 */
export function createRateLimiters(options: RateLimitOptions): RateLimiters {
  const windowMs = options.windowMs ?? 60_000;
  const redis = options.redis ? new SharedRedis(options.redis, options.logger) : undefined;
  const stores: Store[] = [];
  const storeFor = (name: string): Store => {
    const store = redis ? new FallbackStore(redis, name) : new MemoryStore();
    stores.push(store);
    return store;
  };
  const common: Partial<Options> = {
    windowMs,
    logger: loggerFor(options.logger),
    // The stores never throw (they fall back to memory); if one ever did, serve rather than fail.
    passOnStoreError: true,
  };

  const failedAuth = rateLimit({
    ...common,
    limit: options.failedAuthLimit ?? DEFAULT_FAILED_AUTH_LIMIT,
    store: storeFor('auth'),
    requestPropertyName: 'failedAuthRateLimit',
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    // Counted when it starts, taken back when it ends in anything but a 401: only failures remain.
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode !== 401,
    // Not a quota a client plans around; its headers would sit beside the credential's on every response.
    standardHeaders: false,
    legacyHeaders: false,
    handler: tooManyRequests(
      (seconds) => `Too many failed authentication attempts from this address; retry in ${seconds} s`,
    ),
  });

  const failedAuthLimit = options.failedAuthLimit ?? DEFAULT_FAILED_AUTH_LIMIT;
  const addressKey = (req: Request) => ipKeyGenerator(req.ip ?? '');
  const guessing = tooManyRequests(
    (seconds) => `Too many failed authentication attempts from this address; retry in ${seconds} s`,
  );
  // Invoked only once a credential has been refused: every call is a failure to count.
  const credentialFailures = rateLimit({
    ...common,
    limit: failedAuthLimit,
    store: storeFor('auth-credential'),
    requestPropertyName: 'failedAuthRateLimit',
    keyGenerator: addressKey,
    standardHeaders: false,
    legacyHeaders: false,
    handler: guessing,
  });
  const refuseOverBudget: RequestHandler = async (req, res, next) => {
    const key = addressKey(req);
    const info = await credentialFailures.getKey(key);
    if (info && info.totalHits >= failedAuthLimit && (info.resetTime?.getTime() ?? 0) > Date.now()) {
      (req as unknown as Record<string, RateLimitInfo>).failedAuthRateLimit = {
        ...info,
        key,
        limit: failedAuthLimit,
        used: info.totalHits,
        remaining: 0,
      };
      guessing(req, res, next, { requestPropertyName: 'failedAuthRateLimit', windowMs } as Options);
      return;
    }
    next();
  };
  const guardAuthentication = (authenticate: RequestHandler): RequestHandler[] => [
    refuseOverBudget,
    (req, res, next) => {
      const done = (err?: unknown) => {
        if (err instanceof HttpError && err.statusCode === 401) {
          void credentialFailures(req, res, () => next(err));
          return;
        }
        next(err);
      };
      Promise.resolve(authenticate(req, res, done)).catch(done);
    },
  ];

  const perCredential = rateLimit({
    ...common,
    limit: options.limit,
    store: storeFor('credential'),
    keyGenerator: credentialKey,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: tooManyRequests(
      (seconds) => `Rate limit of ${options.limit} requests per ${windowMs / 1000} s exceeded; retry in ${seconds} s`,
    ),
  });

  return {
    failedAuth,
    guardAuthentication,
    perCredential,
    async close() {
      for (const store of stores) await store.shutdown?.();
      await redis?.close();
    },
  };
}
