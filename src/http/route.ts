import { Router, type Request, type RequestHandler, type Response } from 'express';
import type pg from 'pg';
import type { z } from 'zod';
import { authorize, type Action } from '../auth/authorize.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import type { SessionRow } from '../auth/credential.repository.js';
import { principalOf, type ApiKeyPrincipal, type Principal } from '../auth/principal.js';
import { forbidden, unauthorized } from '../errors/http-error.js';
import type { ListCache } from '../cache/list-cache.js';
import type { Database } from '../db/database.js';
import type { ReadReplicas } from '../db/replicas.js';
import type { IdempotencyStore } from '../idempotency/idempotency.store.js';
import type { Mailer } from '../mail/mail.sender.js';
import type { ErrorStatus } from '../shared/responses.js';
import { jsonBody, uploadBody, uploadOf } from './body.js';
import { withRequestTransaction } from './idempotency.js';
import { idParam } from './params.js';
import type { VoteAllowance } from './rate-limit.js';
import { sendReply, type Reply } from './reply.js';
import { parseBody, parseQuery } from './validation.js';

/** What handlers are given besides the request: made once by createApp. */
export interface Services {
  db: Database;
  /**
   * Where the reads that may be a little behind go (DATABASE_READ_URL): a replica that has what the
   * business needs, else the primary. Everything else uses `db`.
   */
  reads: ReadReplicas;
  /** Idempotency-Key: stored responses, and the keys being processed. */
  idempotency: IdempotencyStore;
  lists: ListCache;
  loginThrottle: LoginThrottle;
  /** Queues messages in a transaction and sends them after it commits. */
  mail: Mailer;
  /** Where QR codes point: `<publicBaseUrl>/f/<code>`. */
  publicBaseUrl: string;
  /** EVENT_RETENTION_DAYS: how long the event feed keeps events. */
  eventRetentionDays: number;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: webhook URLs may use http and private addresses (development). */
  webhookAllowPrivateNetworks: boolean;
  /** WEBHOOK_MAX_ENDPOINTS: endpoints one business may have. */
  webhookMaxEndpoints: number;
  /** API_KEYS_MAX_PER_BUSINESS: active API keys one business may have. */
  apiKeysMaxPerBusiness: number;
  /** IMPORT_MAX_BYTES: the largest CSV import body. */
  importMaxBytes: number;
  /**
   * True when PUBLIC_BASE_URL is set: then a browser's post must come from that origin alone, never
   * from whatever the Host header names (src/http/origin.ts).
   */
  publicBaseUrlConfigured: boolean;
  /** INVITES_PER_BUSINESS_PER_HOUR and INVITES_PER_ADDRESS_PER_DAY: the caps on invite emails. */
  inviteLimits: { perBusinessPerHour: number; perAddressPerDay: number };
  /** SIGNUP=open: anyone may create a business at /app/sign-up, after confirming their email. */
  signupOpen: boolean;
  /** False until migrations have run. */
  isReady: () => boolean;
  /** The OpenAPI document, serialised. */
  document: () => string;
  publicPage: PublicPageState;
}

/** The public feedback page's own state (src/public-page), made once per app by createApp. */
export interface PublicPageState {
  /** Milliseconds since the epoch; injectable, so tests need not wait out the form's minimum fill time. */
  now: () => number;
  /** Signs the form's tokens. */
  formKey: Buffer;
  /** Feedback posted sooner than this after its form was shown is refused. */
  minFillMs: number;
  /** Counts one open of a QR code's page; written in batches. */
  countScan(qrCodeId: string, businessId: string, at: Date): void;
  /** The votes one address may add to one suggestion in a day (PAGE_VOTES_PER_ADDRESS_PER_DAY). */
  votes: VoteAllowance;
  /** FOLLOW_CONFIRMATIONS_PER_HOUR: new follows (each one confirmation email) a business takes per hour. */
  followConfirmationsPerHour: number;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * How a route is reached, as wired in app.ts:
 * - `api_key`: /api/v1, an API key in X-API-Key or Authorization: Bearer; limited per key.
 * - `business`: /businesses/{business_id}, an API key of that business or a member's session token
 *   (either header); limited per credential.
 * - `session`: a dashboard session token in Authorization: Bearer; failed authentications are limited.
 * - `public`: no credential; failed authentications are limited per address.
 * - `open`: no credential and no limit (health, the document itself).
 */
export type Guard = 'api_key' | 'business' | 'session' | 'public' | 'open';

/** A JSON Schema written by hand: only for what zod does not describe (CSV text, images). */
export type JsonSchema = Record<string, unknown>;

export interface HeaderSpec {
  description: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface UploadSpec {
  types: readonly string[];
  maxBytes: number;
}

/** A body the document describes by hand, with its example (none only for binary bodies, e.g. PNG). */
export interface MediaSpec {
  schema: JsonSchema;
  example?: unknown;
}

export interface SuccessResponse {
  /** 422 only where an operation answers a report of its own, not the error body (a CSV import's). */
  status: 200 | 201 | 202 | 204 | 422;
  description: string;
  /**
   * A JSON body. Its schema must carry an `id` and `examples` in its metadata: it becomes a named
   * component, and its first example is shown on every operation answering with it.
   */
  json?: z.ZodType;
  /** Bodies in other media types, by media type. */
  media?: Record<string, MediaSpec>;
  headers?: Record<string, HeaderSpec>;
}

/** What the OpenAPI document says of a route: everything but its handler. */
export interface RouteDoc {
  method: Method;
  /** The full path as mounted, Express style: `/api/v1/suggestions/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  guard: Guard;
  /** A `public` route that also takes a dashboard session when one is sent (accepting an invite). */
  optionalSession?: boolean;
  /**
   * What the route asks authorize() for, before it parses its input (`update`: after parsing the
   * body, whose fields decide it). The key scope and member roles it needs are derived from it.
   */
  action?: Action;
  /** When what is needed depends on the request (e.g. a status-only change). */
  accessNote?: string;
  /**
   * What the last path parameter (`:id`, `:user_id`...; never `:business_id`) names, for the 404 of
   * a malformed or unknown one (`Suggestion`). Required exactly when the path has such a parameter.
   */
  resource?: string;
  /** Descriptions of the path parameters, by name (every path parameter is a UUID). */
  params?: Record<string, string>;
  /**
   * The zod schemas the query string and the body are parsed with before the handler runs. A body
   * schema carries `examples` in its metadata: the first is the operation's request example.
   */
  query?: z.ZodType;
  /** Descriptions of query parameters, by name, where the schema's own says too little. */
  queryNotes?: Record<string, string>;
  body?: z.ZodType;
  /**
   * A body of raw bytes rather than JSON (an image): the media types it may be sent as (any other is a
   * 415) and its size bound (a 413). The handler gets the bytes as `upload`.
   */
  upload?: UploadSpec;
  /**
   * A body in another media type, read by the handler from the request itself (a CSV import, streamed):
   * the document describes it by hand; nothing parses it before the handler.
   */
  bodyMedia?: Record<string, MediaSpec>;
  responses: SuccessResponse[];
  /**
   * Whether the route takes `Idempotency-Key` (docs/idempotency.md). By default every POST and PATCH
   * with a credential does, scoped to it; a `public` one may opt in, scoped to the client address.
   */
  idempotency?: boolean;
  /**
   * Fields of the JSON answer that only the request that made them sees (a signing secret): the
   * response is stored with them null, so an Idempotency-Key replay does not show them again and says
   * which it withheld in `Idempotent-Replay-Withheld`.
   */
  notReplayed?: readonly string[];
  /** Error statuses beyond those the guard and inputs imply (400, 401, 403, 413, 415, 429, 500, 503; 404 with a resource). */
  errors?: ErrorStatus[];
}

/**
 * The caller a guard guarantees: a key on /api/v1, a key or member on /businesses, the dashboard
 * session on /auth/me and /auth/logout, nobody elsewhere.
 */
type PrincipalFor<G extends Guard> = G extends 'api_key'
  ? ApiKeyPrincipal
  : G extends 'business'
    ? Principal
    : G extends 'session'
      ? SessionRow
      : null;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * The Express request, where a route's guard needs one: a key or a member's routes never read it,
 * so they can be invoked without Express (Route.invoke); the others read cookies, headers and the
 * client address from it.
 */
type RequestFor<G extends Guard> = G extends 'api_key' | 'business' ? Request | undefined : Request;

export interface RouteContext<G extends Guard, Q, B> {
  req: RequestFor<G>;
  /** The path's parameters, as sent. */
  params: Record<string, string>;
  /** Where the route's family is mounted, with its ids: what a `Location` is written under. */
  baseUrl: string;
  principal: PrincipalFor<G>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /** The bytes of an `upload` route's body. */
  upload: Buffer | undefined;
  services: Services;
  /** The last path parameter, lower-cased; a malformed one was already a 404 naming the resource. */
  id: string;
  /**
   * The request's database, for the services the handler calls: the pool, or, on a write sent with an
   * Idempotency-Key, the key's transaction, which the reply is stored in and commits with (opened by
   * withRequestTransaction; every query on the pool meanwhile joins it).
   */
  db: pg.Pool;
}

export interface RouteSpec<G extends Guard, Q, B> extends RouteDoc {
  guard: G;
  query?: Q & z.ZodType;
  body?: B & z.ZodType;
  /** Answers the reply that defineRoute sends (src/http/reply.ts): a handler never writes to the response. */
  handler: (context: RouteContext<G, Q, B>) => Promise<Reply> | Reply;
}

/** What an operation is run with when it is invoked rather than requested. */
export interface Invocation {
  /** The path's parameters; a business route's `business_id` defaults to the principal's business. */
  params?: Record<string, string>;
  /** The query string's parameters, as Express reads them (strings). */
  query?: unknown;
  /** The body, as JSON would carry it. */
  body?: unknown;
  /** The Express request: only the routes whose guard is neither `api_key` nor `business` need one. */
  req?: Request;
}

/** Whoever a route's guard admits: a key or a member, a dashboard session, or nobody. */
export type Caller = Principal | SessionRow | null;

/** One route, declared once: it registers the Express handler and is a part of the OpenAPI document. */
export interface Route extends RouteDoc {
  /**
   * Runs the operation as a request without an Idempotency-Key would: access, parsing, the id's 404,
   * the handler on the pool, and what follows a commit (replicas told of the write). Refusals are
   * thrown, as HttpErrors; the reply is answered, never sent.
   */
  invoke(services: Services, caller: Caller, input?: Invocation): Promise<Reply>;
  /** Authorizes, parses and handles one request, and sends its reply. */
  handle(req: Request, res: Response, services: Services): Promise<void>;
}

/** Whether a route takes `Idempotency-Key`: see RouteDoc.idempotency. */
export function takesIdempotencyKey(route: RouteDoc): boolean {
  const write = route.method === 'post' || route.method === 'patch';
  return write && (route.idempotency ?? (route.guard !== 'public' && route.guard !== 'open'));
}

/** Who an Idempotency-Key belongs to: the API key, the user, or (on a public route) the address. */
function credentialOf(principal: Caller, req: Request): string {
  if (principal === null) return `address:${req.ip ?? ''}`;
  if ('user_id' in principal) return `user:${principal.user_id}`;
  return principal.kind === 'api_key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
}

/**
 * The declared path with the request's ids in it, lower-cased (they are UUIDs): what an
 * Idempotency-Key is scoped to. Express matches paths whatever their case and with a trailing slash,
 * so the literal path would make `/API/V1/Suggestions/` another request than `/api/v1/suggestions`.
 */
function resolvedPath(path: string, req: Request): string {
  return path.replace(/:(\w+)/g, (_match, name: string) => String(req.params[name] ?? '').toLowerCase());
}

/** The session sessionAuth found; never missing behind it. */
function sessionOf(req: Request): SessionRow {
  if (!req.dashboardSession) throw unauthorized();
  return req.dashboardSession;
}

export function defineRoute<G extends Guard, Q = undefined, B = undefined>(spec: RouteSpec<G, Q, B>): Route {
  const { handler, ...doc } = spec;
  const idName = [...spec.path.matchAll(/:(\w+)/g)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'business_id')
    .at(-1);
  if ((idName === undefined) !== (spec.resource === undefined)) {
    throw new Error(`${spec.path}: a resource names the last path parameter, and is given only when there is one`);
  }
  const idempotent = takesIdempotencyKey(spec);
  const { action } = spec;
  const invokable = spec.guard === 'api_key' || spec.guard === 'business';

  /** A principal check needs no input: it comes first, so a refused caller learns nothing of it. */
  const admit = (caller: Caller) => {
    if (action && action !== 'update') authorize(caller as Principal, action);
  };
  /** Parses the input and runs the handler on the request's database. */
  const run = (services: Services, caller: Caller, input: Invocation, baseUrl: string, db: pg.Pool) => {
    const params = input.params ?? {};
    const id = idName ? idParam(params[idName], spec.resource!) : '';
    const query = (spec.query ? parseQuery(spec.query, input.query) : undefined) as Parsed<Q>;
    // A body of another media type is the handler's to read: from the request, or as invoked (a page's form)
    const body = (spec.body ? parseBody(spec.body, input.body) : spec.bodyMedia ? input.body : undefined) as Parsed<B>;
    const upload = spec.upload ? uploadOf(input.body) : undefined;
    if (action === 'update') authorize(caller as Principal, action, Object.keys(body ?? {}));
    const principal = caller as PrincipalFor<G>;
    const req = input.req as RequestFor<G>;
    return handler({ req, params, baseUrl, principal, query, body, upload, services, id, db });
  };
  // Read-your-writes on replicas: once a business's write has committed, and before its answer
  // is sent, no replica answers for the business until it has replayed that far.
  const committed = (services: Services, caller: Caller) => {
    const businessId = spec.method === 'get' ? undefined : (caller as Principal | null)?.businessId;
    return businessId ? services.reads.wrote(businessId) : Promise.resolve();
  };

  const invoke: Route['invoke'] = async (services, caller, input = {}) => {
    if (!invokable && !input.req) throw new Error(`${spec.path} reads its request: invoke it with one`);
    admit(caller);
    const params = invocationParams(spec.path, caller, input.params);
    const baseUrl = input.req?.baseUrl ?? familyBase(spec.path, params);
    const reply = await run(services, caller, { ...input, params }, baseUrl, services.db.pool);
    await committed(services, caller);
    return reply;
  };
  const handle: Route['handle'] = async (req, res, services) => {
    const caller: Caller =
      spec.guard === 'api_key' || spec.guard === 'business'
        ? principalOf(req)
        : spec.guard === 'session'
          ? sessionOf(req)
          : null;
    const input: Invocation = { params: req.params as Record<string, string>, query: req.query, body: req.body, req };
    if (!idempotent) return sendReply(res, await invoke(services, caller, input));
    admit(caller);
    const transactions = { store: services.idempotency, pool: services.db.pool };
    const credential = credentialOf(caller, req);
    const target = { credential, path: resolvedPath(spec.path, req), notReplayed: spec.notReplayed ?? [] };
    const write = (db: pg.Pool) => run(services, caller, input, req.baseUrl, db);
    return withRequestTransaction(transactions, req, res, target, write, () => committed(services, caller));
  };
  return { ...doc, invoke, handle };
}

/**
 * An invocation's path parameters: a business route is the principal's business's, and naming
 * another is refused as businessAuth refuses it on a request.
 */
function invocationParams(path: string, caller: Caller, params: Record<string, string> = {}): Record<string, string> {
  if (!path.includes(':business_id')) return params;
  const businessId = (caller as Principal | null)?.businessId;
  if (!businessId) throw unauthorized();
  const named = params.business_id;
  if (named !== undefined && named.toLowerCase() !== businessId) {
    throw forbidden('This credential has no access to this business', 'NO_BUSINESS_ACCESS');
  }
  return { ...params, business_id: businessId };
}

/** Where an invoked route's family is mounted: the path up to the business's id, or `/api/v1`. */
function familyBase(path: string, params: Record<string, string>): string {
  const mount = /^(\/businesses\/:business_id|\/api\/v1)(\/|$)/.exec(path)?.[1] ?? '';
  return mount.replace(':business_id', params.business_id ?? '');
}

/**
 * Registers declared routes on family routers, each under the prefix it is mounted at, and proves
 * at start-up that every declared route was registered exactly once.
 */
export class RouteTable {
  readonly #unmounted: Set<Route>;

  constructor(
    readonly routes: readonly Route[],
    private readonly services: Services,
  ) {
    this.#unmounted = new Set(routes);
  }

  /**
   * A router, to mount at `prefix`, with the declared routes of these guards under `prefix`; `before`
   * runs on those routes only (not on other paths under the prefix), before the body is read.
   */
  mount(guards: readonly Guard[], prefix = '', before: RequestHandler[] = []): Router {
    const router = Router({ mergeParams: true });
    for (const route of this.routes) {
      const under = route.path === prefix || route.path.startsWith(`${prefix}/`);
      if (!guards.includes(route.guard) || !under) continue;
      if (!this.#unmounted.delete(route)) throw new Error(`${route.method} ${route.path} is mounted twice`);
      // Only a route that takes a body reads one: elsewhere a body is ignored, never a 413 or 415
      // that the route's documentation could not mention.
      const readBody = route.upload ? [uploadBody(route.upload)] : route.body ? [jsonBody] : [];
      router[route.method](route.path.slice(prefix.length) || '/', ...before, ...readBody, (req, res) => {
        res.locals.route = route.path;
        return route.handle(req, res, this.services);
      });
    }
    return router;
  }

  /** Throws when a declared route was never mounted: the document would promise what Express lacks. */
  assertAllMounted(): void {
    const missing = [...this.#unmounted].map((route) => `${route.method.toUpperCase()} ${route.path}`);
    if (missing.length > 0) throw new Error(`Declared routes never mounted: ${missing.join(', ')}`);
  }
}

/** A request the service makes: a webhook, by event type, with its JSON body (OpenAPI `webhooks`). */
export interface WebhookDoc {
  type: string;
  summary: string;
  /** This type's body. */
  body: z.ZodType;
  /** The union of every type's body, discriminated on `type`: what the request body refers to. */
  joined: z.ZodType;
}

/** A feature's routes, and the tags that group them in the reference. */
export interface Feature {
  tags: { name: string; description: string }[];
  routes: Route[];
  webhooks?: WebhookDoc[];
}
