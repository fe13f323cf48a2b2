import { z } from 'zod';

/** An empty variable (`PORT=` in an env file) means unset, as in most tools. */
const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
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
  REDIS_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Memory for cached /api/v1 list responses (docs/caching.md), in MiB; 0 turns the cache off. */
  LIST_CACHE_MB: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(4096).default(16)),
  /** Origins (comma-separated, exact) whose browser scripts may call the API; unset means no CORS at all. */
  CORS_ORIGINS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z
            .url({ protocol: /^https?$/ })
            .refine(
              (o) => URL.canParse(o) && new URL(o).origin === o,
              'must be an origin like https://app.example.com',
            ),
        ),
      ),
  ),
  /** Where the public feedback page lives: QR codes point at `<PUBLIC_BASE_URL>/f/<code>`. */
  PUBLIC_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).default('http://localhost:3000')),
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
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** Parses the environment once; a bad value stops the process with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${problems.join('\n')}`);
  }
  return parsed.data;
}
