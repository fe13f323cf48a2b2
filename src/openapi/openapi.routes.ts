import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';
import helmet from 'helmet';
import { ACCESSIBLE_CSS, ACCESSIBLE_SCRIPT } from './docs.a11y.js';

export const DOCUMENT_PATH = '/api/v1/openapi.json';

/** The only files of swagger-ui-dist the page uses (its own index.html points at the petstore). */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Feedback API reference</title>
    <link rel="icon" href="/favicon.ico" />
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
    <link rel="stylesheet" href="/docs/a11y.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/**
 * A file, not an inline script, so the page needs no 'unsafe-inline' for scripts. Keys entered
 * under Authorize survive a reload (persistAuthorization); every operation can be tried at once.
 * No validator badge: it would send the document to validator.swagger.io. Examples are plain text:
 * the highlighter's colours fall below 4.5:1 on its dark background (docs.a11y.ts has the rest).
 */
const INIT = `${ACCESSIBLE_SCRIPT}
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${DOCUMENT_PATH}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    filter: true,
    validatorUrl: null,
    syntaxHighlight: { activated: false },
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [AccessibleMarkup],
    layout: 'BaseLayout',
  });
});
`;

/**
 * Helmet's default policy allows styles and fonts from any https: origin and upgrades requests to
 * https (which breaks the page on a plain-HTTP localhost). The page needs only this origin, inline
 * styles (Swagger UI sets style attributes) and data: images (its icons).
 */
const docsPolicy = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    connectSrc: ["'self'"],
    fontSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    frameAncestors: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
  },
});

/**
 * The interactive reference that renders the document (no credential, no rate limit): pages, not
 * API operations, so they are not in the document themselves.
 */
export function docsPages(): Router {
  const router = Router();
  // Only the directory: the package's main module would load the browser bundle into Node.
  const assets = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

  router.use('/docs', docsPolicy);
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('text/javascript').send(INIT);
  });
  router.get('/docs/a11y.css', (_req, res) => {
    res.type('text/css').send(ACCESSIBLE_CSS);
  });
  router.get('/docs/:asset', (req, res, next) => {
    if (!ASSETS.has(req.params.asset)) return next();
    // The files change only with the package: an hour of caching spares reloading 1.5 MB of script.
    res.set('Cache-Control', 'public, max-age=3600');
    res.sendFile(join(assets, req.params.asset), { cacheControl: false });
  });
  return router;
}
