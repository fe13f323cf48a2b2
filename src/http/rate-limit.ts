import type { Request, RequestHandler, Response } from 'express';
import {
  ipKeyGenerator,
  MemoryStore,
  rateLimit,
  type Options,
  type RateLimitInfo,
  type Store,
} from 'express-rate-limit';
import type { Logger } from 'pino';
import { HttpError, RateLimitError, rateLimitBody } from '../errors/http-error.js';
import { BusinessShare } from './business-share.js';
import { FallbackStore, SharedRedis, type RedisOptions } from './rate-limit-store.js';

export interface RateLimitOptions {
  /** Requests per window for one credential (an API key, or a dashboard user). */
  limit: number;
  /** Refused credentials per window from one client address, wherever they were presented. */
  failedAuthLimit?: number;
  /** Fixed window length; a minute in production, shorter in tests. */
  windowMs?: number;
  /** The public feedback page's budgets per client address and window: writes (posting, voting) and reads. */
  pageWriteLimit?: number;
  pageReadLimit?: number;
  /**
   * Votes the public page adds to one suggestion from one client address per `pageVoteWindowMs` (a day),
   * whatever the voter cookie says: a browser that drops its cookie is a new voter, its address is not.
   */
  pageVotesPerAddress?: number;
  pageVoteWindowMs?: number;
  /** Requests of one business this instance serves at once, and how many more may wait (business-share.ts). */
  businessInFlight?: number;
  businessQueued?: number;
  /** Shared counters for several instances; in memory per instance when absent. */
  redis?: RedisOptions;
  logger: Logger;
}

/**
 * Two budgets, each counted once per request:
 * - per address, every refused credential (an API key, a session token, a password, an invite
 *   token): one budget, whichever route it was presented to;
 * - per credential, every request it makes, whatever the outcome (a 403 or a 404 too).
 */
export interface RateLimiters {
  /**
   * Routes with a credential in a header (an API key, a session token): the credential is always looked
   * at, so a valid one is served whatever other clients behind the same address did; a refused one
   * counts, and once the address has spent its budget it is answered with a 429 instead of the 401.
   * (A 200 for a valid key tells a guesser that it is valid, but these are 190- and 256-bit random
   * secrets: the budget slows guessing down, their entropy is what makes it hopeless.)
   */
  refuseSpentAddress: RequestHandler;
  /**
   * Routes whose credential is in the body (sign-in, invite acceptance): each request holds a place
   * in the address's failure budget while in flight, and gives it back unless its credential was
   * refused, so a burst of concurrent guesses cannot all start before any is counted. A page (the
   * dashboard's forms) sets `res.locals.answersWithPage` first: a spent budget's 429 is then passed on
   * to its error handler, to be rendered as a page.
   */
  holdWhileInFlight: RequestHandler;
  /**
   * After the credential is identified (even when it is then refused with a 403): every request counts,
   * the dashboard's pages and the API's routes alike, under one key per credential (`req.credentialId`).
   * A page (`res.locals.answersWithPage`) gets a spent budget's 429 passed on, to be rendered as a page.
   */
  perCredential: RequestHandler;
  /** Each business's share of this instance, once its credential is admitted (business-share.ts). */
  businessShare: BusinessShare;
  /**
   * The public feedback page's budget per address, for its reads or its writes. A refused JSON request
   * gets the spec's 429; a page (`html`) gets the error passed on, for the page to render, with the same
   * Retry-After.
   */
  pageBudget: (kind: 'read' | 'write', answer: 'json' | 'html') => RequestHandler;
  /** The public page's votes per address and suggestion. */
  pageVotes: VoteAllowance;
  /** Closes the Redis connection, if any. */
  close(): Promise<void>;
}

/** A vote's place among those an address may add to a suggestion; given back when no vote was added. */
export interface VotePlace {
  giveBack(): Promise<void>;
}

export interface VoteAllowance {
  /**
   * Takes one of the votes `address` may add to `suggestionId` in the window, or throws a 429
   * (`VOTE_LIMIT`, with Retry-After) when they are spent.
   */
  take(address: string, suggestionId: string): Promise<VotePlace>;
}

const DEFAULT_FAILED_AUTH_LIMIT = 30;
/**
 * Enough for the guests of a busy venue, who share its wifi's address, to back one suggestion in a
 * day; a stuffer dropping the cookie gets this many instead of some 40,000.
 */
export const DEFAULT_PAGE_VOTES_PER_ADDRESS = 50;
const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_PAGE_WRITE_LIMIT = 30;
const DEFAULT_PAGE_READ_LIMIT = 300;
export const DEFAULT_BUSINESS_IN_FLIGHT = 4;
/** Enough for an integration's burst of 50 connections to wait rather than be refused. */
const DEFAULT_BUSINESS_QUEUED = 100;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /**
       * The counter a request's credential is charged to, set as soon as it is identified: `key:<key id>`
       * or `user:<user id>`, never the secret.
       */
      credentialId?: string;
    }
  }
}

/** How a request stands with its address's failure budget (set by the budget's middleware). */
interface FailureState {
  /** Counts the request's refused credential; the 429 to answer instead when the budget is spent. */
  count(): Promise<RateLimitError | undefined>;
}
const failureStates = new WeakMap<Request, FailureState>();

/**
 * Counts a refused credential against the request's address, at most once per request: the one way
 * to say "a credential failed", wherever it is found (authentication, a service checking an invite or
 * a reset token). The error handler calls it for every CredentialError (every 401 among them), so
 * throwing one is enough; a route outside every budget (health, the document) counts nothing. The
 * answer is the 429 to send instead of the refusal, when the address had already spent its budget.
 */
export function countCredentialFailure(req: Request): Promise<RateLimitError | undefined> {
  return failureStates.get(req)?.count() ?? Promise.resolve(undefined);
}

/** The counter a principal's requests are charged to. */
function credentialKey(req: Request): string {
  // Unreachable behind authentication; charging the address keeps a wiring mistake from being unlimited.
  return req.credentialId ?? `ip:${ipKeyGenerator(req.ip ?? '')}`;
}

const addressKey = (req: Request) => ipKeyGenerator(req.ip ?? '');

/** Whole seconds until the window resets: what Retry-After and the body's retryAfter both say. */
function secondsUntilReset(resetTime: Date | undefined, windowMs: number): number {
  const resetAt = resetTime?.getTime() ?? Date.now() + windowMs;
  return Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
}

/** The spec's 429 (section 7): `{error: {code, message, retryAfter}}` and a matching Retry-After header. */
function sendTooMany(res: Response, retryAfter: number, message: string): void {
  res.set('Retry-After', String(retryAfter));
  res.status(429).json(rateLimitBody(message, retryAfter));
}

const guessingMessage = (seconds: number) =>
  `Too many failed authentication attempts from this address; retry in ${seconds} s`;

function loggerFor(logger: Logger): Options['logger'] {
  return {
    warn: (err, message) => logger.warn({ err }, message ?? 'rate limiter warning'),
    error: (err, message) => logger.error({ err }, message ?? 'rate limiter error'),
  };
}

/** One failure budget per address, counted in one store. */
function failureBudget(store: Store, limit: number, windowMs: number) {
  void store.init?.({ windowMs } as Options);
  const refusal = (resetTime: Date | undefined) => {
    const seconds = secondsUntilReset(resetTime, windowMs);
    return new RateLimitError(seconds, guessingMessage(seconds));
  };
  const tooMany = (res: Response, resetTime: Date | undefined) => {
    const { retryAfter, message } = refusal(resetTime);
    sendTooMany(res, retryAfter, message);
  };

  // Nothing is refused up front: clients behind one NAT must not lock each other out of valid keys.
  const refuseSpentAddress: RequestHandler = (req, _res, next) => {
    const key = addressKey(req);
    let counted = false;
    failureStates.set(req, {
      async count() {
        if (counted) return undefined;
        counted = true;
        const info = await store.increment(key);
        return info.totalHits > limit ? refusal(info.resetTime) : undefined;
      },
    });
    next();
  };

  const holdWhileInFlight: RequestHandler = async (req, res, next) => {
    const key = addressKey(req);
    const info = await store.increment(key);
    if (info.totalHits > limit) {
      await store.decrement(key);
      if (res.locals.answersWithPage === true) return next(refusal(info.resetTime));
      tooMany(res, info.resetTime);
      return;
    }
    let failed = false;
    let released = false;
    const release = () => {
      if (failed || released) return;
      released = true;
      void Promise.resolve(store.decrement(key)).catch(() => undefined);
    };
    failureStates.set(req, {
      async count() {
        if (failed) return;
        failed = true;
        // The place this request holds is kept: it is the failure (or taken again, if already given back).
        if (released) await store.increment(key);
      },
    });
    res.on('finish', release);
    res.on('close', release);
    next();
  };

  return { refuseSpentAddress, holdWhileInFlight };
}

/**
 * Votes per address and suggestion, counted in one store (Redis when configured, so every instance
 * counts the same votes): a place is taken before the vote is cast, and given back when it added none.
 */
function voteAllowance(store: Store, limit: number, windowMs: number): VoteAllowance {
  void store.init?.({ windowMs } as Options);
  return {
    async take(address, suggestionId) {
      const key = `${ipKeyGenerator(address)} ${suggestionId}`;
      const info = await store.increment(key);
      if (info.totalHits > limit) {
        await store.decrement(key);
        const seconds = secondsUntilReset(info.resetTime, windowMs);
        throw new RateLimitError(
          seconds,
          `This suggestion already has ${limit} votes from this address today; votes from it count again in ${seconds} s`,
          'VOTE_LIMIT',
        );
      }
      let given = false;
      return {
        async giveBack() {
          if (given) return;
          given = true;
          await store.decrement(key);
        },
      };
    },
  };
}

/**
 * The limiters every router with a credential uses: `refuseSpentAddress` (a credential in a header)
 * or `holdWhileInFlight` (in the body) before the credential is looked at, `perCredential` once it
 * is identified.
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

  const failures = failureBudget(storeFor('auth'), options.failedAuthLimit ?? DEFAULT_FAILED_AUTH_LIMIT, windowMs);

  const perCredential = rateLimit({
    windowMs,
    logger: loggerFor(options.logger),
    // The stores never throw (they fall back to memory); if one ever did, serve rather than fail.
    passOnStoreError: true,
    limit: options.limit,
    store: storeFor('credential'),
    keyGenerator: credentialKey,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (req, res, next, handlerOptions) => {
      const info = (req as unknown as Record<string, RateLimitInfo | undefined>)[handlerOptions.requestPropertyName];
      const seconds = secondsUntilReset(info?.resetTime, windowMs);
      const message = `Rate limit of ${options.limit} requests per ${windowMs / 1000} s exceeded; retry in ${seconds} s`;
      if (res.locals.answersWithPage === true) return next(new RateLimitError(seconds, message, 'CREDENTIAL_BUDGET'));
      sendTooMany(res, seconds, message);
    },
  });

  const pageLimiter = (kind: 'read' | 'write', limit: number) => {
    const store = storeFor(`page-${kind}`);
    return (answer: 'json' | 'html') =>
      rateLimit({
        windowMs,
        logger: loggerFor(options.logger),
        passOnStoreError: true,
        limit,
        store,
        // Deliberate: the JSON and the HTML routes spend one budget, so their limiters share its
        // store (same window); express-rate-limit would otherwise log this as an error at every start.
        validate: { unsharedStore: false },
        keyGenerator: addressKey,
        standardHeaders: false,
        legacyHeaders: false,
        handler: (req, res, next, handlerOptions) => {
          const info = (req as unknown as Record<string, RateLimitInfo | undefined>)[
            handlerOptions.requestPropertyName
          ];
          const seconds = secondsUntilReset(info?.resetTime, windowMs);
          const message = `Too many ${kind === 'write' ? 'posts and votes' : 'page views'} from this address; retry in ${seconds} s`;
          if (answer === 'json') return sendTooMany(res, seconds, message);
          next(new HttpError(429, message, 'RATE_LIMIT_EXCEEDED', { 'Retry-After': String(seconds) }));
        },
      });
  };
  // One store per budget, shared by the JSON and HTML routes that spend it.
  const pageBudgets = {
    read: pageLimiter('read', options.pageReadLimit ?? DEFAULT_PAGE_READ_LIMIT),
    write: pageLimiter('write', options.pageWriteLimit ?? DEFAULT_PAGE_WRITE_LIMIT),
  };

  return {
    ...failures,
    perCredential,
    businessShare: new BusinessShare({
      inFlight: options.businessInFlight ?? DEFAULT_BUSINESS_IN_FLIGHT,
      queued: options.businessQueued ?? DEFAULT_BUSINESS_QUEUED,
    }),
    pageBudget: (kind, answer) => pageBudgets[kind](answer),
    pageVotes: voteAllowance(
      storeFor('page-votes'),
      options.pageVotesPerAddress ?? DEFAULT_PAGE_VOTES_PER_ADDRESS,
      options.pageVoteWindowMs ?? DAY_MS,
    ),
    async close() {
      for (const store of stores) await store.shutdown?.();
      await redis?.close();
    },
  };
}
