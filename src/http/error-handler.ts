import type { ErrorRequestHandler, RequestHandler } from 'express';
import { HttpError, errorBody } from './errors.js';

/** Error codes of a connection that broke or a server going away: the client may retry. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown (pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
  '53300', // too_many_connections
]);

interface BodyParserError {
  type?: string;
  status?: number;
}

function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    err.message,
  );
}

/** Maps what a body parser throws to the spec's status codes. */
function fromBodyParser(err: BodyParserError): HttpError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'Malformed JSON in request body', 'MALFORMED_JSON');
    case 'entity.too.large':
      return new HttpError(413, 'Request body exceeds 64 KiB', 'PAYLOAD_TOO_LARGE');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'Unsupported body encoding', 'UNSUPPORTED_MEDIA_TYPE');
    default:
      return undefined;
  }
}

/** PostgreSQL refusing a character it cannot store: the input's fault, so a 400, never a 500. */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

function fromDatabase(err: unknown): HttpError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNSTORABLE_TEXT_CODES.has(code)) {
    return new HttpError(
      400,
      'Validation failed: the request contains characters that cannot be stored',
      'VALIDATION_FAILED',
    );
  }
  return undefined;
}

/** The one place every error becomes the spec's `{statusCode, message, error}` body. Never a stack. */
export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  let httpError = err instanceof HttpError ? err : (fromBodyParser(err as BodyParserError) ?? fromDatabase(err));
  if (!httpError && isUnavailable(err)) {
    req.log.warn({ err }, 'database unavailable');
    httpError = new HttpError(503, 'Service temporarily unavailable, retry shortly', 'SERVICE_UNAVAILABLE', {
      'Retry-After': '1',
    });
  }
  if (!httpError) {
    req.log.error({ err }, 'unhandled error');
    httpError = new HttpError(500, 'Internal server error', 'INTERNAL_ERROR');
  }
  if (res.headersSent) {
    // A streamed response cannot change its status any more: cut it so the client sees it failed.
    res.destroy();
    return;
  }
  res.set(httpError.headers);
  res.status(httpError.statusCode).json(errorBody(httpError.statusCode, httpError.message, httpError.code, req.id));
};

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, `Route ${req.method} ${req.path} not found`, 'ROUTE_NOT_FOUND'));
};
