import type { CookieOptions, Response } from 'express';

/** A cookie a reply sets (the public page's anonymous voter token). */
export interface ReplyCookie {
  name: string;
  value: string;
  options: CookieOptions;
}

interface ReplyHead {
  status: number;
  /** Where the new resource is (the `Location` header, percent-encoded by Express). */
  location?: string;
  /** More headers, set after `Location` (an Idempotency-Key replay says it is one). */
  headers?: Record<string, string>;
  cookies?: readonly ReplyCookie[];
}

export interface JsonReply extends ReplyHead {
  kind: 'json';
  body: unknown;
}

/** A body in another media type (an image, the document as served, a stored response). */
export interface MediaReply extends ReplyHead {
  kind: 'media';
  contentType: string;
  body: string | Buffer;
}

export interface EmptyReply extends ReplyHead {
  kind: 'empty';
}

/** A body written as it is read (an export): never stored, so never behind an Idempotency-Key. */
export interface StreamReply {
  kind: 'stream';
  write: (res: Response) => Promise<void>;
}

/** What a route's handler answers; sendReply is the one place that sends it. */
export type Reply = JsonReply | MediaReply | EmptyReply | StreamReply;

export const ok = (body: unknown): JsonReply => ({ kind: 'json', status: 200, body });

export const created = (body: unknown, location?: string): JsonReply =>
  location === undefined ? { kind: 'json', status: 201, body } : { kind: 'json', status: 201, body, location };

/** Queued: with a body, or none. */
export const accepted = (body?: unknown): JsonReply | EmptyReply =>
  body === undefined ? { kind: 'empty', status: 202 } : { kind: 'json', status: 202, body };

export const noContent = (): EmptyReply => ({ kind: 'empty', status: 204 });

export const media = (contentType: string, body: string | Buffer): MediaReply => ({
  kind: 'media',
  status: 200,
  contentType,
  body,
});

export const stream = (write: (res: Response) => Promise<void>): StreamReply => ({ kind: 'stream', write });

/** Sends a reply: the status, its headers, then its body. */
export async function sendReply(res: Response, reply: Reply): Promise<void> {
  if (reply.kind === 'stream') return reply.write(res);
  for (const { name, value, options } of reply.cookies ?? []) res.cookie(name, value, options);
  res.status(reply.status);
  if (reply.location !== undefined) res.location(reply.location);
  if (reply.headers) res.set(reply.headers);
  if (reply.kind === 'json') res.json(reply.body);
  else if (reply.kind === 'media') res.set('Content-Type', reply.contentType).send(reply.body);
  else res.end();
}
