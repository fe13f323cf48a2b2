import { ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toBusinessResponse } from './business.presenter.js';
import { businessSchema } from './business.responses.js';
import { updateBusinessBody } from './business.schemas.js';
import { changeBusiness, getBusiness } from './business.service.js';

const common = { tag: 'Business', guard: 'business', path: '/businesses/:business_id' } as const;

/** /businesses/:business_id itself: its name, plan and the Approval required setting. */
export const businessFeature: Feature = {
  tags: [{ name: 'Business', description: 'The business itself and its settings (`/businesses/{business_id}`)' }],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      operationId: 'getBusiness',
      summary: 'Read the business and its settings',
      action: 'read',
      responses: [{ status: 200, description: 'The business', json: businessSchema }],
      handler: async ({ principal, db }) => ok(toBusinessResponse(await getBusiness(db, principal.businessId))),
    }),
    defineRoute({
      ...common,
      method: 'patch',
      operationId: 'updateBusiness',
      summary: 'Rename the business or change its settings',
      description:
        'Give at least one of `name`, `approval_required`, `notify_followers`, `roadmap_enabled`, `default_language`, ' +
        '`roadmap_statuses`. Turning Approval required on does not hide what ' +
        'is already on the public page, and turning it off does not publish what awaits review: only ' +
        'suggestions created afterwards follow the new setting.',
      action: 'manage_business',
      body: updateBusinessBody,
      responses: [{ status: 200, description: 'The updated business', json: businessSchema }],
      handler: async ({ principal, body, db }) =>
        ok(toBusinessResponse(await changeBusiness(db, principal.businessId, principal, body))),
    }),
  ],
};
