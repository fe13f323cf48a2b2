import type { Request, RequestHandler, Router } from 'express';
import { getPublishedEntry, listPublishedEntries } from '../changelog/changelog.service.js';
import type { ChangelogEntryRow } from '../changelog/changelog.repository.js';
import { HttpError } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { qrCodeParam } from './page.schemas.js';
import { openCode } from './page.service.js';
import type { CodeTarget } from './page.repository.js';
import { rememberLanguage } from './page.locale.js';
import { renderChangelog, renderChangelogEntry } from './page.views.js';

/** Entries a page of the changelog shows, and its feed carries. */
const PER_PAGE = 20;
const FEED_ENTRIES = 50;

/** Characters XML 1.0 cannot carry (a body may hold them): dropped from the feed. */
// eslint-disable-next-line no-control-regex -- these are the characters it removes
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xml = (text: string) =>
  text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const codeOf = (value: unknown): string => {
  const parsed = qrCodeParam.safeParse(value);
  if (!parsed.success) throw new HttpError(404, 'Feedback page not found', 'NOT_FOUND');
  return parsed.data;
};

const iso = (date: Date | null) => (date ?? new Date(0)).toISOString();

/** The entry as the pages show it: its words are already HTML the renderer made safe. */
const shown = (code: string, entry: ChangelogEntryRow) => ({
  id: entry.id,
  title: entry.title,
  body_html: entry.body_html,
  published_at: iso(entry.published_at),
  published_on: iso(entry.published_at).slice(0, 10),
  url: `/f/${code}/changelog/${entry.id}`,
});

/** The Atom 1.0 document of a page's changelog (RFC 4287): the newest published entries. */
function atomFeed(base: string, code: string, business: string, entries: ChangelogEntryRow[]): string {
  const page = `${base}/f/${code}/changelog`;
  const updated = entries.reduce(
    (latest, entry) => (entry.updated_at > latest ? entry.updated_at : latest),
    new Date(0),
  );
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xml(page)}</id>`,
    `  <title>${xml(t('changelog.feed.title', { business }))}</title>`,
    `  <updated>${iso(updated)}</updated>`,
    `  <author><name>${xml(business)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(`${page}.atom`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(page)}"/>`,
  ];
  for (const entry of entries) {
    lines.push(
      '  <entry>',
      `    <id>urn:uuid:${entry.id}</id>`,
      `    <title>${xml(entry.title)}</title>`,
      `    <updated>${iso(entry.updated_at)}</updated>`,
      `    <published>${iso(entry.published_at)}</published>`,
      `    <link rel="alternate" type="text/html" href="${xml(`${page}/${entry.id}`)}"/>`,
      `    <content type="html">${xml(entry.body_html)}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

/**
 * The public changelog of a QR code's page (docs/changelog.md): `/f/<code>/changelog`, each entry at
 * `/f/<code>/changelog/<id>`, and the Atom feed `/f/<code>/changelog.atom`. Published entries only,
 * on the page's read budget; an inactive code is a 410 as the page is.
 */
export function addChangelogPages(
  router: Router,
  services: Services,
  {
    budget,
    policy,
    localeOf,
  }: { budget: RequestHandler; policy: RequestHandler; localeOf: (req: Request, target: CodeTarget) => string },
): void {
  const pool = services.db.pool;
  const base = services.publicBaseUrl.replace(/\/+$/, '');

  router.get('/f/:code/changelog.atom', budget, async (req, res) => {
    const code = codeOf(req.params.code);
    const target = await openCode(pool, code);
    const { rows } = await listPublishedEntries(pool, target.business_id, {
      order: 'desc',
      limit: FEED_ENTRIES,
      offset: 0,
    });
    res.type('application/atom+xml; charset=utf-8').send(atomFeed(base, code, target.business_name, rows));
  });

  router.get('/f/:code/changelog', policy, budget, async (req, res) => {
    const code = codeOf(req.params.code);
    const target = await openCode(pool, code);
    rememberLanguage(req, res);
    const offsetText = typeof req.query.offset === 'string' ? req.query.offset : '0';
    const offset = /^\d{1,7}$/.test(offsetText) ? Number(offsetText) : 0;
    const { rows, total } = await listPublishedEntries(pool, target.business_id, {
      order: 'desc',
      limit: PER_PAGE,
      offset,
    });
    res.type('html').send(
      renderChangelog(
        {
          code,
          business_name: target.business_name,
          entries: rows.map((entry) => shown(code, entry)),
          next_offset: offset + PER_PAGE < total ? offset + PER_PAGE : null,
        },
        localeOf(req, target),
      ),
    );
  });

  router.get('/f/:code/changelog/:id', policy, budget, async (req, res) => {
    const code = codeOf(req.params.code);
    const target = await openCode(pool, code);
    const entry = await getPublishedEntry(pool, target.business_id, idParam(req.params.id, 'Changelog entry'));
    rememberLanguage(req, res);
    const view = { code, business_name: target.business_name, entry: shown(code, entry) };
    res.type('html').send(renderChangelogEntry(view, localeOf(req, target)));
  });
}
