import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id, also echoed as X-Request-Id and quoted in error bodies. */
      id: string;
      /** A logger whose every line carries the request id. */
      log: Logger;
    }
  }
}

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Query parameters that carry a secret in a link a person is sent to (a follower's confirm and
 * unsubscribe `token`, the `posted` proof of a thank-you page): their values never reach a log line.
 */
const SECRET_PARAMS = new Set(['token', 'posted']);

const decodedName = (name: string) => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
};

/** The request's URL as logged: every secret query parameter's value replaced, however its name is encoded. */
export function loggedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_PARAMS.has(decodedName(name).toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/** Told of every response sent, with how long it took (the metrics' request histogram). */
export type ResponseObserver = (req: Request, res: Response, seconds: number) => void;

/**
 * One log line per request, when its response has been sent (or the client went away first), carrying
 * the request id that is also echoed as X-Request-Id: method, path, status, duration and the client's
 * address. Request headers are never logged, and the secrets links carry in their query are
 * redacted (loggedUrl), so no credential can reach a log line from here.
 * `req.log` makes its child logger only when something logs through it: most requests never do.
 * `observe` is told of each response sent, from the same listener.
 */
export function requestLogging(logger: Logger, observe?: ResponseObserver): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const offered = req.headers['x-request-id'];
    const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { get: () => (child ??= logger.child({ reqId: id })), configurable: true });

    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const elapsed = performance.now() - started;
      const line = {
        reqId: id,
        req: { method: req.method, url: loggedUrl(req.originalUrl), remoteAddress: req.socket.remoteAddress },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(elapsed),
      };
      if (!res.writableFinished) {
        logger.warn(line, 'request aborted');
        return;
      }
      observe?.(req, res, elapsed / 1000);
      // A 503 is said on purpose (starting, or the database away, which logs its own warning), with
      // Retry-After: health checks polling during a start are not errors.
      if (res.statusCode === 503) logger.warn(line, 'request refused: service unavailable');
      else if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
