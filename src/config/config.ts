import { z } from 'zod';
import { isConnectionString, splitConnectionStrings } from './connection-string.js';

/** An empty variable (`PORT=` in an env file) means unset, as in most tools. */
const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/** A comma-separated list, empty when unset: each item trimmed, empty ones dropped, each checked by `item`. */
const commaList = <T extends z.ZodType<string, string>>(item: T) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .pipe(z.array(item)),
  );
const milliseconds = (fallback: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3_600_000).default(fallback));

const envFields = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  /** One host, or a formation's hosts as libpq writes them (`h1:5432,h2:5432/db?target_session_attrs=read-write`). */
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(
        isConnectionString,
        'must be a connection string: postgres://user@host:port/db, or several hosts h1:p1,h2:p2',
      )
      .optional(),
  ),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  /**
   * Streaming replicas of DATABASE_URL (comma-separated) for the reads that may be a little behind
   * (docs/operations.md#read-replicas). PostgreSQL only: the embedded database has no replicas.
   */
  DATABASE_READ_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('')
      .transform(splitConnectionStrings)
      .pipe(
        z.array(
          z
            .string()
            .refine(
              (url) => /^postgres(ql)?:\/\//i.test(url) && isConnectionString(url),
              'must be postgres:// connection strings',
            ),
        ),
      ),
  ),
  /** A replica further behind the primary than this (by its replay position) is not read from. */
  READ_REPLICA_MAX_LAG_MS: milliseconds(1_000),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  RATE_LIMIT_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(60)),
  /**
   * Failed authentications per minute per client address. A request counts while it is in flight, so
   * a load test with more concurrent connections than this from one address needs it raised.
   */
  RATE_LIMIT_FAILED_AUTH_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(30)),
  /**
   * Requests of one business an instance serves at once, API and dashboard together; the business's
   * further requests wait in a line of their own (src/http/business-share.ts).
   */
  BUSINESS_REQUESTS_IN_FLIGHT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(4)),
  REDIS_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Memory for cached /api/v1 list responses (docs/caching.md), in MiB; 0 turns the cache off. */
  LIST_CACHE_MB: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(4096).default(16)),
  /** Origins (comma-separated, exact) whose browser scripts may call the API; unset means no CORS at all. */
  CORS_ORIGINS: commaList(
    z
      .url({ protocol: /^https?$/ })
      .refine((o) => URL.canParse(o) && new URL(o).origin === o, 'must be an origin like https://app.example.com'),
  ),
  /**
   * Prometheus metrics (src/metrics): off unless a port is given, and then served on that port alone
   * (GET /metrics), bound to METRICS_HOST, so the API's port never exposes them.
   */
  METRICS_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).optional()),
  METRICS_HOST: z.preprocess(emptyAsUndefined, z.string().default('127.0.0.1')),
  /** Where the public feedback page lives: QR codes point at `<PUBLIC_BASE_URL>/f/<code>`. */
  PUBLIC_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).default('http://localhost:3000')),
  /** The public feedback page's budgets per client address and minute: posts and votes, and page views. */
  PAGE_WRITES_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(30)),
  PAGE_READS_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(300)),
  /**
   * Votes the public page adds to one suggestion from one client address in a day, whatever its
   * cookies say; a venue whose guests share one wifi address and expect more raises it.
   */
  PAGE_VOTES_PER_ADDRESS_PER_DAY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(50)),
  /** Feedback posted sooner than this after the form was shown is refused (bots fill forms at once). */
  PAGE_MIN_FILL_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(600).default(3)),
  /** Signs the page's form tokens; set the same value on every instance behind one address. Random if unset. */
  PAGE_FORM_SECRET: z.preprocess(emptyAsUndefined, z.string().min(16).optional()),
  /** How long the event feed keeps events (docs/events.md); older ones are purged in small batches. */
  EVENT_RETENTION_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3650).default(30)),
  /**
   * Development and tests only: webhook URLs may be plain http and reach loopback, private and
   * link-local addresses. Off, a webhook needs https and a public address, checked at connect time.
   */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
  ),
  /**
   * Webhook endpoints one business may have: each takes up to 4 of a worker's connections while its
   * receiver is slow, so one business cannot fill a worker with its own.
   */
  WEBHOOK_MAX_ENDPOINTS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(20)),
  /** Active API keys one business may have: each key has its own request budget. */
  API_KEYS_MAX_PER_BUSINESS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).default(100)),
  /** The largest CSV import, counted as it streams in (issue 44: 50 MB); smaller in tests of the 413. */
  IMPORT_MAX_BYTES: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(1_073_741_824).default(52_428_800),
  ),
  /**
   * Whether this instance delivers webhooks (on by default; every instance may, claims never collide).
   * Off for instances that must not make outgoing requests, and for test servers sharing a database.
   */
  WEBHOOK_DELIVERY: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
  ),
  /**
   * SMTP server for invites and password resets: `smtps://user:pass@host:465` or
   * `smtp://user:pass@host:587` (STARTTLS). Unset: development mail mode, where messages are only
   * written to the log and invite tokens are returned to the inviter (never in production).
   */
  SMTP_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
  /** Sender of every message, e.g. `Feedback <no-reply@example.com>`; required with SMTP_URL. */
  MAIL_FROM: z.preprocess(
    emptyAsUndefined,
    z.string().trim().includes('@', { message: 'must contain an address' }).optional(),
  ),
  /**
   * Invite emails a business may send per hour, and to one address per day (rolling windows; a
   * cancelled or expired invite was still an email, so it counts): more is a 429.
   */
  INVITES_PER_BUSINESS_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(50)),
  INVITES_PER_ADDRESS_PER_DAY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(3)),
  /**
   * `open`: anyone may create a business at /app/sign-up, once the confirmation link mailed to their
   * address is followed. `closed` (the default): the page is a 404; businesses come from the first
   * run's link, the admin CLI and invites.
   */
  SIGNUP: z.preprocess(emptyAsUndefined, z.enum(['closed', 'open']).default('closed')),
  /** Messages to followers one business may queue per hour (docs/notifications.md); the rest wait. */
  FOLLOWER_EMAILS_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(500)),
  /** Follow confirmations one business may send per hour (docs/notifications.md); more is a 429. */
  FOLLOW_CONFIRMATIONS_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(100)),
  /**
   * Where the dashboard lives: messages link to its pages `/accept-invite` and `/reset-password`.
   * Unset: the service's own dashboard, `<PUBLIC_BASE_URL>/app` (dashboardUrl below).
   */
  DASHBOARD_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  /**
   * Express `trust proxy`: a hop count ("1" behind one reverse proxy) or addresses / subnets / presets
   * ("loopback, 10.0.0.0/8"). Unset or "false" trusts no proxy. "true" is refused: any client could then
   * pick its address with X-Forwarded-For and escape the per-address limit on failed authentications.
   */
  TRUST_PROXY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .refine((value) => value.toLowerCase() !== 'true', 'must be a hop count or a list of addresses, not "true"')
      .transform((value) => (value.toLowerCase() === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value))
      .optional(),
  ),
  /** How long a response stored for an Idempotency-Key is replayed (docs/idempotency.md). */
  IDEMPOTENCY_TTL_HOURS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .min(1)
      .max(24 * 30)
      .default(24),
  ),
  /** Longest a client may take to send a request's headers (slowloris). */
  HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
  /** Longest a client may take to send a whole request, body included (64 KiB at most): then a 408. */
  HTTP_REQUEST_TIMEOUT_MS: milliseconds(30_000),
  /**
   * How long an idle keep-alive connection stays open. Behind a proxy that keeps connections to the
   * service, the proxy's idle timeout must be shorter (nginx.conf: `keepalive_timeout 4s`).
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000),
});

const envSchema = envFields
  // The headers are part of the request: their timeout cannot be the longer one.
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
    message: 'must not be longer than HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
  })
  // Refused rather than ignored: an operator who names replicas expects the primary to be relieved.
  .refine((env) => env.DATABASE_READ_URL.length === 0 || env.DATABASE_URL !== undefined, {
    message: 'needs DATABASE_URL: the embedded database (PGlite) has no replicas to read from',
    path: ['DATABASE_READ_URL'],
  })
  .refine((env) => env.SMTP_URL === undefined || env.MAIL_FROM !== undefined, {
    message: 'is required when SMTP_URL is set',
    path: ['MAIL_FROM'],
  });

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** DASHBOARD_URL, or the dashboard this service serves itself at `<PUBLIC_BASE_URL>/app`. */
export function dashboardUrl(config: Partial<Pick<Config, 'DASHBOARD_URL' | 'PUBLIC_BASE_URL'>>): string {
  return config.DASHBOARD_URL ?? `${(config.PUBLIC_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '')}/app`;
}

/** Parses the environment once; a bad value stops the process with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${problems.join('\n')}`);
  }
  return parsed.data;
}
