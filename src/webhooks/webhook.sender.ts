import http from 'node:http';
import https from 'node:https';
import { guardedLookup, refusedHost } from './webhook.address.js';

export interface SendOutcome {
  /** The HTTP status, or null when no response came (refused, unreachable, timed out). */
  status: number | null;
  durationMs: number;
  /** Seconds from Retry-After, on a 429 or 503 that gave one. */
  retryAfterSeconds: number | null;
  /**
   * Why it failed, in general terms: stored as the delivery's `last_error`, which owners read. It never
   * echoes what DNS answered or which address was tried (an owner could map internal names with it).
   */
  error: string | null;
  /** The failure as Node reported it, addresses included: for the log only. */
  detail: string | null;
}

export interface SendOptions {
  /** Development and tests: loopback and private addresses may be reached. */
  allowPrivateNetworks: boolean;
  timeoutMs: number;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/**
 * One wording for a name that does not resolve and one that resolves to an internal address: two
 * wordings would let an owner tell the internal names that exist from those that do not.
 */
const NO_PUBLIC_ADDRESS = 'no public address: the host is unknown or not a public one';

/** Node's error codes, by what they say in general terms. */
const FAILURES: [RegExp, string][] = [
  [/^(ECONNREFUSED)$/, 'connection refused'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NODATA|EAI_NONAME|ENODATA)$/, NO_PUBLIC_ADDRESS],
  [/^(TIMEOUT|ETIMEDOUT|ESOCKETTIMEDOUT)$/, 'timed out'],
  [/^(ECONNRESET|EPIPE|ECONNABORTED)$/, 'connection closed before the response'],
  [/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)$/, 'host unreachable'],
  [/CERT|SELF_SIGNED|SIGNATURE|TLS|SSL|HOSTNAME_MISMATCH/, 'TLS certificate not accepted'],
  [/^HPE_/, 'not a valid HTTP response'],
];

/**
 * What a failed attempt says to the endpoint's owners: the kind of failure, never Node's message,
 * which names the addresses a host resolved to (`connect ECONNREFUSED 10.0.3.7:443`).
 */
export function failureOf(err: Error & { code?: unknown }): string {
  if (err.name === 'RefusedAddressError') return NO_PUBLIC_ADDRESS;
  const code = typeof err.code === 'string' ? err.code : '';
  if (code === 'TIMEOUT') return `timed out: ${err.message}`;
  const known = FAILURES.find(([pattern]) => pattern.test(code));
  return known ? known[1] : 'connection failed';
}

/** `Retry-After: 120` or an HTTP date, as seconds from `now`. */
export function retryAfterSeconds(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * POSTs one signed body. Redirects are not followed (a 3xx is a failure), nothing of the response
 * body is kept, and the whole exchange up to the response headers must fit in `timeoutMs`.
 */
export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
  now: Date,
): Promise<SendOutcome> {
  const started = performance.now();
  const outcome = (
    status: number | null,
    error: string | null,
    retryAfter: number | null = null,
    detail: string | null = error,
  ): SendOutcome => ({
    status,
    error,
    detail,
    retryAfterSeconds: retryAfter,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(outcome(null, 'not a valid URL'));
  }
  const agent = agents[url.protocol as keyof typeof agents] as http.Agent | undefined;
  if (!agent) return Promise.resolve(outcome(null, `refused: ${url.protocol} is not http or https`));
  if (!options.allowPrivateNetworks) {
    const refused = refusedHost(url);
    if (refused) return Promise.resolve(outcome(null, NO_PUBLIC_ADDRESS, null, `refused: ${refused}`));
  }
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      agent,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'feedback-api-webhooks/1',
      },
      ...(options.allowPrivateNetworks ? {} : { lookup: guardedLookup }),
    });
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error(`no response within ${options.timeoutMs} ms`), { code: 'TIMEOUT' }));
    }, options.timeoutMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      response.resume(); // drained and dropped: only the status counts
      const status = response.statusCode ?? 0;
      const retryAfter =
        status === 429 || status === 503 ? retryAfterSeconds(response.headers['retry-after'], now) : null;
      resolve(outcome(status, status >= 200 && status < 300 ? null : `HTTP ${status}`, retryAfter));
    });
    request.on('error', (err) => {
      clearTimeout(timer);
      const refused = err.name === 'RefusedAddressError' ? 'refused: ' : '';
      resolve(outcome(null, failureOf(err), null, `${refused}${err.message}`.slice(0, 500)));
    });
    request.end(body);
  });
}
