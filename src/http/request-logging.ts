import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
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
 * One log line per request, when its response has been sent (or the client went away first), carrying
 * the request id that is also echoed as X-Request-Id: method, path, status, duration and the client's
 * address. Request headers are never logged, so no credential can reach a log line from here.
 * `req.log` makes its child logger only when something logs through it: most requests never do.
 */
export function requestLogging(logger: Logger): RequestHandler {
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
      const line = {
        reqId: id,
        req: { method: req.method, url: req.originalUrl, remoteAddress: req.socket.remoteAddress },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      if (!res.writableFinished) logger.warn(line, 'request aborted');
      else if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
