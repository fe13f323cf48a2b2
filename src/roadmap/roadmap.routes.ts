import { defineFamilies } from '../http/families.js';
import { media } from '../http/reply.js';
import type { Feature } from '../http/route.js';
import { toSuggestionListItem } from '../suggestions/suggestion.presenter.js';
import type { Roadmap } from './roadmap.responses.js';
import { roadmapSchema } from './roadmap.responses.js';
import { cachedBody, readRoadmap, roadmapDay, roadmapNotFound, roadmapSettings } from './roadmap.service.js';

/** A roadmap turned off is kept in the cache as this: an empty body, answered with the 404. */
const OFF = Buffer.alloc(0);

const roadmap = defineFamilies({
  method: 'get',
  path: '/roadmap',
  action: 'read',
  tag: 'Roadmap',
  description:
    'The public roadmap, as `/f/<code>/roadmap` shows it: one column per status of the business’s ' +
    '`roadmap_statuses` (`PATCH /businesses/{business_id}`), in their order, each with its exact `total` ' +
    'and its first 20 suggestions by votes (then the newest), shaped as list items. Only what the public ' +
    'page shows: `public` suggestions that need no review or were approved, not merged; `completed` holds ' +
    'those completed in the 90 days before the start of today (UTC). A business whose `roadmap_enabled` ' +
    'is off answers a 404.',
  responses: [{ status: 200, description: 'The roadmap', json: roadmapSchema }],
  errors: [404],
  v1: { operationId: 'getRoadmap', summary: 'Read the public roadmap' },
  business: { operationId: 'getBusinessRoadmap', summary: 'Read the public roadmap (dashboard)' },
  handler: async ({ principal, db, family, services }) => {
    const now = new Date();
    const body = await cachedBody(services.lists, principal, `roadmap ${family} ${roadmapDay(now)}`, async () => {
      const settings = await roadmapSettings(db, principal.businessId);
      if (!settings.roadmap_enabled) return OFF;
      const columns = await readRoadmap(db, principal.businessId, settings.roadmap_statuses, now);
      const answer: Roadmap = {
        columns: columns.map(({ rows, ...column }) => ({ ...column, data: rows.map(toSuggestionListItem) })),
      };
      return Buffer.from(JSON.stringify(answer));
    });
    if (body.length === 0) throw roadmapNotFound();
    return media('application/json; charset=utf-8', body);
  },
});

/** The roadmap (issue 42, docs/roadmap.md): its JSON side in both families; the page is page.roadmap.ts. */
export const roadmapFeature: Feature = {
  tags: [
    {
      name: 'Roadmap',
      description: 'What the business plans, is doing and has done, as its customers see it on `/f/<code>/roadmap`',
    },
  ],
  routes: [roadmap.v1, roadmap.business],
};
