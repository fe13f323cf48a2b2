import type { Request, RequestHandler, Router } from 'express';
import { HttpError } from '../errors/http-error.js';
import type { Services } from '../http/route.js';
import { cachedBody, readRoadmap, roadmapDay } from '../roadmap/roadmap.service.js';
import { votedBy } from '../votes/vote.service.js';
import { t } from '../shared/messages.js';
import type { CodeTarget } from './page.repository.js';
import { qrCodeParam } from './page.schemas.js';
import { readVoterToken } from './page.security.js';
import { rememberLanguage } from './page.locale.js';
import { openCode } from './page.service.js';
import { brandKey, brandOf } from './page.brand.js';
import { renderRoadmap, type RoadmapView } from './page.views.js';

type Columns = RoadmapView['columns'];

const codeOf = (req: Request): string => {
  const parsed = qrCodeParam.safeParse(req.params.code);
  if (!parsed.success) throw new HttpError(404, 'Feedback page not found', 'NOT_FOUND');
  return parsed.data;
};

/** The roadmap's columns as the page shows them, from the list cache while the business is unchanged. */
async function pageColumns(services: Services, target: CodeTarget, now: Date): Promise<Columns> {
  const reader = { businessId: target.business_id, changeNumber: target.change_number };
  const body = await cachedBody(services.lists, reader, `roadmap-page ${roadmapDay(now)}`, async () => {
    const columns = await services.reads.read(reader, 'page', (pool) =>
      readRoadmap(pool, target.business_id, target.roadmap_statuses, now),
    );
    const shown: Columns = columns.map(({ rows, ...column }) => ({
      ...column,
      status_label: t(`page.status.${column.status}`),
      items: rows.map((row) => ({
        id: row.id,
        content: row.content,
        customer_name: row.customer_name,
        upvote_count: row.upvote_count,
        voted: false,
      })),
    }));
    return Buffer.from(JSON.stringify(shown));
  });
  return JSON.parse(body.toString()) as Columns;
}

/**
 * The roadmap page, `/f/<code>/roadmap` (docs/roadmap.md): the business's columns, with a vote button
 * on each card (a form that posts without JavaScript, and comes back here). A business that turned its
 * roadmap off has none: a 404. As the feedback page, a visitor without a voter cookie gets a page
 * rendered once per change of the business (and day: `completed` moves with it).
 */
export function addRoadmapPage(
  router: Router,
  services: Services,
  {
    budget,
    policy,
    ready,
    localeOf,
  }: {
    budget: RequestHandler;
    policy: RequestHandler;
    ready: RequestHandler;
    localeOf: (req: Request, target: CodeTarget) => string;
  },
): void {
  router.get('/f/:code/roadmap', policy, budget, ready, async (req, res) => {
    const code = codeOf(req);
    const target = await openCode(services.db.pool, code);
    if (!target.roadmap_enabled) throw new HttpError(404, 'Roadmap not found', 'NOT_FOUND');
    const now = new Date(services.publicPage.now());
    const locale = localeOf(req, target);
    rememberLanguage(req, res);
    const voter = readVoterToken(req);
    const brand = brandOf(target);
    const view = { code, business_name: target.business_name, location_name: target.location_name, brand };
    const names = JSON.stringify([target.business_name, target.location_name, brandKey(brand)]);
    const reader = { businessId: target.business_id, changeNumber: target.change_number };
    if (!voter) {
      const page = await cachedBody(
        services.lists,
        reader,
        `roadmap-html ${locale} ${code} ${roadmapDay(now)} ${names}`,
        async () => Buffer.from(renderRoadmap({ ...view, columns: await pageColumns(services, target, now) }, locale)),
      );
      return void res.type('html').send(page);
    }
    const columns = await pageColumns(services, target, now);
    const ids = columns.flatMap((column) => column.items.map((item) => item.id));
    const voted = await votedBy(services.db.pool, target.business_id, { type: 'anonymous', token: voter }, ids);
    for (const column of columns) for (const item of column.items) item.voted = voted.has(item.id);
    res.type('html').send(renderRoadmap({ ...view, columns }, locale));
  });
}
