import { createServer, type Server } from 'node:http';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CacheObserver } from '../cache/list-cache.js';
import type { ReadObserver, ReplicaStatus } from '../db/replicas.js';
import type { ResponseObserver } from '../http/request-logging.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The template of the declared route that answered (`/api/v1/suggestions/:id`), for metrics. */
      route?: string;
    }
  }
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/**
 * Requests answered before a route matched (a 401, a 429, an unknown path) are labelled by their
 * family, so a scanner's random URLs cannot grow the number of series.
 */
const FAMILIES: [RegExp, string][] = [
  [/^\/api\/v1\//, '/api/v1/*'],
  [/^\/businesses\//, '/businesses/:business_id/*'],
  [/^\/auth\//, '/auth/*'],
  [/^\/invites\//, '/invites/*'],
  [/^\/docs(\/|$)/, '/docs'],
];
const familyOf = (path: string) => FAMILIES.find(([pattern]) => pattern.test(path))?.[1] ?? 'unmatched';

/**
 * What an operator running several instances watches, in Prometheus's text format: requests by route
 * template (never by raw path, whose ids would make a series per row) and status class, the database
 * pool, the list cache, rate-limit refusals, and Node's own figures (event-loop lag among them).
 * Made only when METRICS_PORT is set, and served on that port alone.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly #requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Requests answered, by method, route template and status class, and how long they took',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly #refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with a 429 by a rate limit, by route template',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly #cache = new Counter({
    name: 'list_cache_lookups_total',
    help: 'List cache lookups, by outcome (hit or miss)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly #reads = new Counter({
    name: 'db_reads_total',
    help: 'Reads that may go to a read replica, by where they went (primary or replica) and what they read',
    labelNames: ['target', 'kind'] as const,
    registers: [this.registry],
  });

  readonly #fallbacks = new Counter({
    name: 'db_replica_fallbacks_total',
    help: 'Reads sent to the primary although replicas are configured, by reason (down, lagging, behind_business, failed)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  constructor(pool: pg.Pool) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections, by state: in use, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  /** An observer for the list cache, whose size (`bytes()`) is read at every scrape. */
  listCacheObserver(bytes: () => number): CacheObserver {
    new Gauge({
      name: 'list_cache_bytes',
      help: 'Bytes of cached list responses',
      registers: [this.registry],
      collect() {
        this.set(bytes());
      },
    });
    return {
      hit: () => this.#cache.inc({ outcome: 'hit' }),
      miss: () => this.#cache.inc({ outcome: 'miss' }),
    };
  }

  /** An observer for the read replicas, whose state (`replicas()`) is read at every scrape. */
  readObserver(replicas: () => ReplicaStatus[]): ReadObserver {
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'How far each read replica is known to be behind the primary, by its replay position',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect() {
        for (const { name, lagMs } of replicas()) this.set({ replica: name }, lagMs / 1000);
      },
    });
    new Gauge({
      name: 'db_replica_up',
      help: 'Whether each read replica answered its last poll as a standby (1) or not (0)',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect() {
        for (const { name, up } of replicas()) this.set({ replica: name }, up ? 1 : 0);
      },
    });
    return {
      read: (target, kind) => this.#reads.inc({ target, kind }),
      fallback: (reason) => this.#fallbacks.inc({ reason }),
    };
  }

  /**
   * Observes a response once sent. Given to the request log (`requestLogging`), which already listens
   * for the end of every response, so that measuring adds no listener and no timer to a request.
   */
  readonly observeResponse: ResponseObserver = (req, res, seconds) => {
    const route = res.locals.route ?? familyOf(req.originalUrl);
    this.#requests.observe({ method: req.method, route, status_class: statusClass(res.statusCode) }, seconds);
    if (res.statusCode === 429) this.#refusals.inc({ route });
  };

  /** The scrape endpoint, on a listener of its own: GET /metrics, nothing else. */
  listen(port: number, host: string): Server {
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': this.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    return server.listen(port, host);
  }
}
