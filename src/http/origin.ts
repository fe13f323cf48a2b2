import type { Request } from 'express';

/**
 * Where a browser says a post comes from: its Origin, or the origin of its Referer when it sends no
 * Origin; undefined when it sends neither (every browser sends one of them on a POST).
 */
function postedFrom(req: Request): string | undefined {
  const referer = req.get('referer');
  return req.get('origin') ?? (referer && URL.canParse(referer) ? new URL(referer).origin : undefined);
}

/**
 * True when a post comes from this service's own pages. With PUBLIC_BASE_URL set (`configured`), only
 * its origin passes: the Host header is the client's to choose, so a request addressed to another
 * name that reaches this service proves nothing. Without it (a laptop, a test), the default address
 * and the origin the request was addressed to pass, so the pages work at whatever address they are
 * opened.
 */
export function fromOwnOrigin(req: Request, publicBaseUrl: string, configured: boolean): boolean {
  const from = postedFrom(req);
  if (!from) return false;
  if (from === new URL(publicBaseUrl).origin) return true;
  return !configured && from === `${req.protocol}://${req.get('host') ?? ''}`;
}
