import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** One log line per request, each carrying the request id that is also echoed as X-Request-Id. */
export function requestLogging(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const offered = req.headers['x-request-id'];
      const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel(_req, res, err) {
      if (err || res.statusCode >= 500) return 'error';
      return 'info';
    },
    quietReqLogger: true,
    // Response headers are noise in a one-line-per-request log; the status and timing are what matter.
    serializers: { res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }) },
  });
}
