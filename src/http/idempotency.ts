import type { Request, Response } from 'express';
import { errorBody, type HttpError } from '../errors/http-error.js';
import { parseIdempotencyKey } from '../idempotency/idempotency.key.js';
import type { IdempotencyStore, StoredResponse } from '../idempotency/idempotency.store.js';
import { clientErrorOf } from './error-handler.js';

/** Refusals a retry may turn around (a credential, a permission, a limit): never stored. */
const NOT_STORED = new Set([401, 403, 429]);

const JSON_TYPE = 'application/json; charset=utf-8';

/** Who sends the request and what it is addressed to, as the route sees it. */
export interface KeyedTarget {
  /** `key:<api key id>`, `user:<user id>` or `address:<client address>`. */
  credential: string;
  /** The matched route's path with its ids filled in (not the path as sent, whose case may vary). */
  path: string;
  /** Fields of a success's JSON body stored as null: a replay does not show them (RouteDoc.notReplayed). */
  notReplayed: readonly string[];
}

/**
 * Runs a write with its Idempotency-Key, when the request has one (docs/idempotency.md): a stored
 * response is replayed without running it again; otherwise it runs in the key's transaction, and its
 * response commits with its writes. Its 4xx refusals are stored too, in a transaction of their own;
 * 401, 403, 429 and 5xx are not.
 */
export async function runIdempotently(
  store: IdempotencyStore,
  req: Request,
  res: Response,
  { credential, path, notReplayed }: KeyedTarget,
  operation: () => Promise<void> | void,
): Promise<void> {
  const key = parseIdempotencyKey(req.get('Idempotency-Key'));
  if (key === undefined) return operation();
  const query = req.originalUrl.indexOf('?');
  const url = query === -1 ? path : path + req.originalUrl.slice(query);
  const begun = await store.begin({ credential, method: req.method, path, url, body: req.body as unknown, key });
  if ('replay' in begun) {
    send(res, begun.replay, notReplayed);
    return;
  }
  const { claim } = begun;
  const capture = captureResponse(res);
  let outcome: Awaited<ReturnType<typeof claim.run<StoredResponse>>>;
  try {
    outcome = await claim.run(async () => {
      await operation();
      return capture.response();
    });
  } catch (err) {
    capture.restore();
    const refusal = clientErrorOf(err);
    const stored = refusal && !NOT_STORED.has(refusal.statusCode) ? errorResponse(refusal, req) : undefined;
    await claim.rollBack(stored).catch(() => undefined);
    throw err;
  }
  capture.restore();
  const { replay } = await claim.commit(withheld(outcome.result, notReplayed));
  if (replay) {
    send(res, replay, notReplayed);
    return;
  }
  send(res, outcome.result);
  for (const callback of outcome.afterCommit) callback();
}

/** The body the error handler answers a refusal with, byte for byte. */
function errorResponse(error: HttpError, req: Request): StoredResponse {
  const body = errorBody(error.statusCode, error.message, error.code, req.id);
  return { status: error.statusCode, contentType: JSON_TYPE, location: null, body: JSON.stringify(body) };
}

/** A success as stored: the fields only its own request may see are null. */
function withheld(response: StoredResponse, fields: readonly string[]): StoredResponse {
  if (fields.length === 0 || !succeeded(response) || response.body === null) return response;
  const body = JSON.parse(response.body) as Record<string, unknown>;
  for (const field of fields) if (field in body) body[field] = null;
  return { ...response, body: JSON.stringify(body) };
}

const succeeded = (response: StoredResponse) => response.status < 300 && response.contentType === JSON_TYPE;

/** Sends a response; a replay (given what the route withholds from one) says it is one. */
function send(res: Response, response: StoredResponse, replayOf?: readonly string[]): void {
  res.status(response.status);
  if (response.location !== null) res.set('Location', response.location);
  if (replayOf) res.set('Idempotent-Replayed', 'true');
  if (replayOf && replayOf.length > 0 && succeeded(response)) {
    res.set('Idempotent-Replay-Withheld', replayOf.join(', '));
  }
  if (response.body === null) {
    res.end();
    return;
  }
  if (response.contentType !== null) res.set('Content-Type', response.contentType);
  res.send(response.body);
}

/**
 * Holds back what the operation answers, so that it is sent only once stored and committed: the
 * response methods handlers use are shadowed on this response until restored.
 */
function captureResponse(res: Response) {
  let captured: StoredResponse | undefined;
  const take = (body: string | null, contentType: string | null) => {
    captured = { status: res.statusCode, contentType, location: res.get('Location') ?? null, body };
    return res;
  };
  const shadow = res as unknown as Record<'json' | 'send' | 'end', (value?: unknown) => Response>;
  shadow.json = (value) => take(JSON.stringify(value), JSON_TYPE);
  shadow.send = (value) => {
    if (typeof value !== 'string') throw new Error('An idempotent operation answers JSON, text or nothing');
    return take(value, res.get('Content-Type') ?? 'text/html; charset=utf-8');
  };
  shadow.end = () => take(null, null);
  return {
    response(): StoredResponse {
      if (!captured) throw new Error('The operation sent no response');
      return captured;
    },
    restore() {
      for (const method of ['json', 'send', 'end']) Reflect.deleteProperty(res, method);
    },
  };
}
