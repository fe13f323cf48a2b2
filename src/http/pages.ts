import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import { Eta } from 'eta';
import helmet from 'helmet';

/**
 * What every server-rendered page of the service shares (the public feedback page, the dashboard):
 * its templates, its content-hashed assets and its Content-Security-Policy.
 */

/** Same path from src/http (tsx, vitest) and dist/http (compiled), as for migrations/. */
const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

/**
 * The templates of `web/views/<folder>`. Eta escapes every `<%= %>` value (autoEscape); `<%~ %>` is
 * used only to place the output of other templates (the layout's body, a partial), never a value.
 * `compact` drops the templates' own indentation and blank lines (Eta's `rmWhitespace`, on the
 * template's text before it is compiled, never on a value): a newline still separates what a line
 * break separated, so the page renders the same. The public page is a tenth smaller for it, and its
 * bytes are most of what a kept page costs to send (bench/README.md "Public rows").
 */
export const templates = (folder = '', { compact = false } = {}): Eta =>
  new Eta({
    views: `${WEB_DIR}views${folder ? `/${folder}` : ''}`,
    autoEscape: true,
    cache: true,
    autoTrim: false,
    rmWhitespace: compact,
  });

export interface Asset {
  /** Where it is served, under the router that serves it. */
  path: string;
  body: Buffer;
  type: string;
}

/** A file of web/assets, named by a hash of its content: cached for a year, never stale. */
export function hashedAsset(file: string, type: string): Asset {
  const body = readFileSync(`${WEB_DIR}assets/${file}`);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const [name, extension] = file.split('.');
  return { path: `/assets/${name}.${hash}.${extension}`, body, type };
}

/** How long a browser keeps the icon: a week, as its name cannot change with its content. */
const FAVICON_MAX_AGE_S = 7 * 24 * 60 * 60;

/**
 * The icon every browser asks a site for (`/favicon.ico`, and the layouts link it): the service's own,
 * so no page's visit ends in a 404, and no other host is asked.
 */
export function favicon(): RequestHandler {
  const body = readFileSync(`${WEB_DIR}assets/favicon.ico`);
  return (_req, res) => {
    res.set('Cache-Control', `public, max-age=${FAVICON_MAX_AGE_S}`).type('image/x-icon').send(body);
  };
}

/**
 * Only this origin, no inline script or style, forms that post here only, never framed. helmet's
 * `no-referrer` makes Chromium send `Origin: null` with a page's own form posts, which the same-origin
 * checks must refuse; `same-origin` still sends nothing to other sites.
 */
export function pagePolicy(defaultSrc: "'self'" | "'none'"): RequestHandler {
  const contentPolicy = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: [defaultSrc],
      baseUri: ["'none'"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      imgSrc: ["'self'"],
      objectSrc: ["'none'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'"],
    },
  });
  return (req, res, next) => {
    res.set('Referrer-Policy', 'same-origin');
    contentPolicy(req, res, next);
  };
}
