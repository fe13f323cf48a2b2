import { describe, expect, it } from 'vitest';
import { ConfigError, dashboardUrl, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('When the environment is empty, then every default applies and the database is embedded', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATABASE_URL: undefined,
      DATA_DIR: './data',
      DATABASE_READ_URL: [],
      READ_REPLICA_MAX_LAG_MS: 1_000,
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: 60,
      RATE_LIMIT_FAILED_AUTH_PER_MINUTE: 30,
      REDIS_URL: undefined,
      LIST_CACHE_MB: 16,
      TRUST_PROXY: undefined,
      PUBLIC_BASE_URL: 'http://localhost:3000',
      PAGE_WRITES_PER_MINUTE: 30,
      PAGE_READS_PER_MINUTE: 300,
      PAGE_VOTES_PER_ADDRESS_PER_DAY: 50,
      PAGE_MIN_FILL_SECONDS: 3,
      EVENT_RETENTION_DAYS: 30,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
      WEBHOOK_MAX_ENDPOINTS: 20,
      API_KEYS_MAX_PER_BUSINESS: 100,
      IMPORT_MAX_BYTES: 52_428_800,
      SIGNUP: 'closed',
      BUSINESS_REQUESTS_IN_FLIGHT: 4,
      WEBHOOK_DELIVERY: true,
      CORS_ORIGINS: [],
      METRICS_PORT: undefined,
      METRICS_HOST: '127.0.0.1',
      IDEMPOTENCY_TTL_HOURS: 24,
      HTTP_HEADERS_TIMEOUT_MS: 10_000,
      HTTP_REQUEST_TIMEOUT_MS: 30_000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 5_000,
      SMTP_URL: undefined,
      MAIL_FROM: undefined,
      DASHBOARD_URL: undefined,
      INVITES_PER_BUSINESS_PER_HOUR: 50,
      INVITES_PER_ADDRESS_PER_DAY: 3,
      FOLLOWER_EMAILS_PER_HOUR: 500,
      FOLLOW_CONFIRMATIONS_PER_HOUR: 100,
    });
  });

  it('When DASHBOARD_URL is unset, then the messages link to the dashboard this service serves under PUBLIC_BASE_URL', () => {
    expect(dashboardUrl(loadConfig({}))).toBe('http://localhost:3000/app');
    expect(dashboardUrl(loadConfig({ PUBLIC_BASE_URL: 'https://feedback.example/' }))).toBe(
      'https://feedback.example/app',
    );
    expect(dashboardUrl(loadConfig({ DASHBOARD_URL: 'https://team.example' }))).toBe('https://team.example');
  });

  it('When SMTP_URL is set without MAIL_FROM, or is not an SMTP URL, then the start fails naming the variable', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com:587' })).toThrow(/MAIL_FROM: is required/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@b.c' })).toThrow(/SMTP_URL/);
    expect(
      loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Feedback <no-reply@example.com>' }),
    ).toMatchObject({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Feedback <no-reply@example.com>' });
  });

  it('When the server timeouts are set, then they are parsed; headers longer than the whole request are refused', () => {
    expect(
      loadConfig({
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_REQUEST_TIMEOUT_MS: '4000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
      }),
    ).toMatchObject({
      HTTP_HEADERS_TIMEOUT_MS: 2000,
      HTTP_REQUEST_TIMEOUT_MS: 4000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 65000,
    });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '60000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must not be longer/,
    );
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });

  it('When variables are set, then they are parsed; empty URLs mean unset', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@h:5432/db',
      REDIS_URL: '',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({ PORT: 8080, DATABASE_URL: 'postgres://u@h:5432/db', REDIS_URL: undefined });
  });

  it('When values are invalid, then it fails with one readable message naming each variable', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'not a url' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/Invalid environment configuration:[\s\S]*PORT[\s\S]*DATABASE_URL[\s\S]*LOG_LEVEL/);
  });
});

describe('loadConfig: rate-limit settings', () => {
  it('When REDIS_URL is a redis:// URL, then it is kept; when empty, it is unset', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ REDIS_URL: '' }).REDIS_URL).toBeUndefined();
  });

  it.each([
    ['1', 1],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
    ['false', false],
    ['', undefined],
  ])('When TRUST_PROXY is "%s", then express gets %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('When TRUST_PROXY is "true", then the start is refused: any client could pick its address', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
  });
});

describe('loadConfig: CORS_ORIGINS', () => {
  it('When origins are listed, then they are split and trimmed', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
  });

  it.each(['*', 'https://a.example.com/path', 'ftp://a.example.com'])(
    'When an origin is %s, then the start is refused',
    (value) => {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(ConfigError);
    },
  );
});

describe('loadConfig: read replicas', () => {
  it('When DATABASE_READ_URL lists replicas beside DATABASE_URL, then they are split and trimmed', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://app@primary:5432/feedback',
      DATABASE_READ_URL: 'postgres://app@replica-a:5432/feedback, postgresql://app@replica-b:5432/feedback',
      READ_REPLICA_MAX_LAG_MS: '500',
    });
    expect(config.DATABASE_READ_URL).toEqual([
      'postgres://app@replica-a:5432/feedback',
      'postgresql://app@replica-b:5432/feedback',
    ]);
    expect(config.READ_REPLICA_MAX_LAG_MS).toBe(500);
  });

  it('When DATABASE_READ_URL is set for the embedded database, then the start is refused: it has no replicas', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://app@replica:5432/feedback' })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL/,
    );
  });

  it('When a replica is not a PostgreSQL URL, then the start is refused naming the variable', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://app@primary/feedback', DATABASE_READ_URL: 'redis://replica:6379' }),
    ).toThrow(/DATABASE_READ_URL/);
  });
});
