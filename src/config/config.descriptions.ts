import type { Config } from './config.js';

/**
 * What each environment variable of config.ts is for, one line each: `npm run docs:config` writes the
 * configuration tables (docs/operations.md, the README) and `.env.example` from it and the schema's
 * defaults. Typed by the schema, so a variable cannot be added without its description. Plain text
 * with `code`; a `docs/<file>.md` mention becomes a link in the tables.
 */
export const CONFIG_DESCRIPTIONS: Record<keyof Config, string> = {
  PORT: 'HTTP port the server listens on',
  HOST: 'interface to bind: `0.0.0.0` listens on every interface, `127.0.0.1` only locally',
  DATABASE_URL: 'PostgreSQL connection string; unset means the embedded database (PGlite) in `DATA_DIR`',
  DATA_DIR: 'where the embedded database keeps its files, lock and socket; ignored when `DATABASE_URL` is set',
  DATABASE_READ_URL:
    'PostgreSQL streaming replicas (comma-separated connection strings) for exports, analytics, searches, the ' +
    'public page and the dashboard lists (docs/operations.md#read-replicas); needs `DATABASE_URL`; unset, every ' +
    'read goes to the primary',
  READ_REPLICA_MAX_LAG_MS:
    'a replica further behind the primary than this, by its replay position, is not read from ' +
    '(docs/operations.md#read-replicas)',
  LOG_LEVEL: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  RATE_LIMIT_PER_MINUTE: 'requests per minute per API key or dashboard user',
  RATE_LIMIT_FAILED_AUTH_PER_MINUTE:
    'refused credentials (keys, tokens, passwords, invite tokens) per minute per client address; a request ' +
    'counts while in flight, so a load test with more concurrent connections from one address needs it raised',
  BUSINESS_REQUESTS_IN_FLIGHT:
    "requests of one business (all its keys and members, API and dashboard) that an instance serves at once; the business's further requests wait in a line of their own, up to 100, then a 429 ([rate limits](#rate-limits))",
  REDIS_URL:
    'Redis for rate-limit counters shared by several instances; unset (or while Redis is unreachable), ' +
    'each instance counts in memory',
  LIST_CACHE_MB: 'MiB of memory for cached list responses, never stale (docs/caching.md); 0 turns the cache off',
  CORS_ORIGINS:
    'comma-separated exact origins (`https://app.example.com`) whose browser scripts may call the API; ' +
    'unset, no CORS headers',
  METRICS_PORT: 'Prometheus metrics (`GET /metrics`) on a port of their own (docs/operations.md#metrics); unset, off',
  METRICS_HOST: 'interface the metrics port binds; `0.0.0.0` only on a private network where the scraper runs',
  PUBLIC_BASE_URL: 'base of the public feedback page; QR codes encode `<PUBLIC_BASE_URL>/f/<code>`',
  PAGE_WRITES_PER_MINUTE: 'feedback posts and votes per minute per client address on the public page',
  PAGE_READS_PER_MINUTE: 'public page views per minute per client address',
  PAGE_VOTES_PER_ADDRESS_PER_DAY:
    'votes the public page adds to one suggestion from one client address in 24 hours, whatever its cookies',
  PAGE_MIN_FILL_SECONDS: 'feedback sent sooner than this after its form was shown is refused',
  PAGE_FORM_SECRET:
    "signs the page's form tokens: set the same value (16+ characters) on every instance behind one address; " +
    'unset, each process makes a random one',
  EVENT_RETENTION_DAYS: 'how long the event feed keeps events; an older cursor is a 410 (docs/events.md)',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS:
    'development and tests only: webhook URLs may be `http` and reach loopback and private addresses; off, a ' +
    'webhook needs https and a public address, checked at every connection',
  WEBHOOK_MAX_ENDPOINTS: 'webhook endpoints one business may have',
  IMPORT_MAX_BYTES:
    'the largest CSV import body, in bytes, counted as it streams in; past it the import is a 413 and writes nothing',
  API_KEYS_MAX_PER_BUSINESS:
    'API keys one business may have that are not revoked (each has its own request budget); past it a 409',
  WEBHOOK_DELIVERY:
    'whether this instance delivers webhooks (any number may; they never send the same attempt); off for ' +
    'instances that must make no outgoing requests',
  SMTP_URL:
    '`smtps://user:pass@host:465` or `smtp://user:pass@host:587` (STARTTLS), for invites and password resets; ' +
    'unset: development mail mode (messages only logged, invite tokens returned to the inviter), never production',
  MAIL_FROM: 'sender of every message, e.g. `Feedback <no-reply@example.com>`; required with `SMTP_URL`',
  INVITES_PER_BUSINESS_PER_HOUR:
    'invite emails a business may send per hour, cancelled invites included; more is a 429',
  INVITES_PER_ADDRESS_PER_DAY:
    'invite emails a business may send to one address per 24 hours, cancelled invites included',
  SIGNUP:
    '`open`: anyone may create a business at `/app/sign-up` after confirming their email by a mailed link; `closed` (default): a 404',
  FOLLOWER_EMAILS_PER_HOUR:
    'messages to followers of suggestions one business may queue per hour; the rest wait for the next hour',
  FOLLOW_CONFIRMATIONS_PER_HOUR:
    'follow confirmations one business may send per hour (new follows from its page); more is a 429 with Retry-After',
  DASHBOARD_URL:
    "the dashboard's base URL: messages link to its `/accept-invite` and `/reset-password` pages; unset, " +
    'the dashboard this service serves, `<PUBLIC_BASE_URL>/app`',
  TRUST_PROXY:
    'proxies to trust for the client address: a hop count (`1` behind one nginx) or addresses, subnets and ' +
    'presets (`loopback, 10.0.0.0/8`); unset trusts none; `true` is refused',
  IDEMPOTENCY_TTL_HOURS: 'how long a response stored for an `Idempotency-Key` is replayed (docs/idempotency.md)',
  HTTP_HEADERS_TIMEOUT_MS:
    "longest a client may take to send a request's headers (docs/operations.md#connection-timeouts); at most " +
    '`HTTP_REQUEST_TIMEOUT_MS`',
  HTTP_REQUEST_TIMEOUT_MS:
    'longest a client may take to send a whole request, body included (at most 64 KiB): then a 408 and the ' +
    'connection closes',
  HTTP_KEEP_ALIVE_TIMEOUT_MS:
    "how long an idle keep-alive connection waits for the client's next request; a proxy that keeps " +
    'connections to the service must close them sooner',
};
