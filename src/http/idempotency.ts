import type { Request, Response } from 'express';
import type pg from 'pg';
import { bodyOf, type HttpError } from '../errors/http-error.js';
import { parseIdempotencyKey } from '../idempotency/idempotency.key.js';
import type { IdempotencyStore, StoredResponse } from '../idempotency/idempotency.store.js';
import { clientErrorOf } from './error-handler.js';
import { sendReply, type Reply } from './reply.js';

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

/** Where a write's request transaction comes from: the store of keys, on the pool it opens it on. */
export interface RequestTransactions {
  store: IdempotencyStore;
  pool: pg.Pool;
}

/**
 * Runs a write with the request's database and sends its reply. Without an Idempotency-Key that
 * database is the pool. With one (docs/idempotency.md), this is where the request transaction
 * opens: a stored reply is replayed without running the write again; otherwise the write runs in
 * the key's transaction, and its reply is stored in it and commits with its writes. Its 4xx
 * refusals are stored too, in a transaction of their own; 401, 403, 429 and 5xx are not.
 */
export async function withRequestTransaction(
  { store, pool }: RequestTransactions,
  req: Request,
  res: Response,
  { credential, path, notReplayed }: KeyedTarget,
  write: (db: pg.Pool) => Promise<Reply> | Reply,
  /** Runs once the write has committed, before its reply is sent (not for a replay: nothing was written). */
  committed: () => Promise<void> = async () => {},
): Promise<void> {
  const key = parseIdempotencyKey(req.get('Idempotency-Key'));
  if (key === undefined) {
    const reply = await write(pool);
    await committed();
    return sendReply(res, reply);
  }
  const query = req.originalUrl.indexOf('?');
  const url = query === -1 ? path : path + req.originalUrl.slice(query);
  const begun = await store.begin({ credential, method: req.method, path, url, body: req.body as unknown, key });
  if ('replay' in begun) return sendReply(res, replayOf(begun.replay, notReplayed));
  const { claim } = begun;
  let outcome: Awaited<ReturnType<typeof claim.run<Reply>>>;
  let stored: StoredResponse;
  try {
    outcome = await claim.run(async (db) => write(db));
    stored = storedOf(outcome.result);
  } catch (err) {
    const refusal = clientErrorOf(err);
    const refused = refusal && !NOT_STORED.has(refusal.statusCode) ? errorResponse(refusal, req) : undefined;
    await claim.rollBack(refused).catch(() => undefined);
    throw err;
  }
  const { replay } = await claim.commit(withheld(stored, notReplayed));
  if (replay) return sendReply(res, replayOf(replay, notReplayed));
  await committed();
  await sendReply(res, outcome.result);
  for (const callback of outcome.afterCommit) callback();
}

/** A reply as stored for a replay: JSON, text or nothing (an image or an export is never a write's). */
function storedOf(reply: Reply): StoredResponse {
  const location = reply.kind === 'stream' ? null : (reply.location ?? null);
  if (reply.kind === 'json') {
    return { status: reply.status, contentType: JSON_TYPE, location, body: JSON.stringify(reply.body) };
  }
  if (reply.kind === 'empty') return { status: reply.status, contentType: null, location, body: null };
  if (reply.kind === 'media' && typeof reply.body === 'string') {
    return { status: reply.status, contentType: reply.contentType, location, body: reply.body };
  }
  throw new Error('An idempotent operation answers JSON, text or nothing');
}

/** The body the error handler answers a refusal with, byte for byte. */
function errorResponse(error: HttpError, req: Request): StoredResponse {
  const body = bodyOf(error, req.id);
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

/** A stored response replayed: it says it is one, and which fields the route withholds from one. */
function replayOf(response: StoredResponse, withheldFields: readonly string[]): Reply {
  const headers: Record<string, string> = { 'Idempotent-Replayed': 'true' };
  if (withheldFields.length > 0 && succeeded(response))
    headers['Idempotent-Replay-Withheld'] = withheldFields.join(', ');
  const head = {
    status: response.status,
    headers,
    ...(response.location === null ? {} : { location: response.location }),
  };
  if (response.body === null) return { kind: 'empty', ...head };
  // A body stored without a type is sent as Express sends text: HTML.
  return { kind: 'media', ...head, contentType: response.contentType ?? 'text/html', body: response.body };
}
