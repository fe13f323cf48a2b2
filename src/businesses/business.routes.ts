import { noContent, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toBusinessResponse } from './business.presenter.js';
import { businessSchema } from './business.responses.js';
import { updateBusinessBody } from './business.schemas.js';
import { changeBusiness, getBusiness } from './business.service.js';
import { LOGO_MAX_BYTES, LOGO_TYPES, logoPath } from './logo.image.js';
import { logoSchema } from './logo.responses.js';
import { removeLogo, setLogo } from './logo.service.js';

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
    defineRoute({
      ...common,
      path: `${common.path}/logo`,
      method: 'put',
      operationId: 'putBusinessLogo',
      summary: "Set the business's logo",
      description:
        'The image itself is the body: `image/png`, `image/jpeg` or `image/webp`, at most 512 KB (a 413 ' +
        'beyond). Anything else, SVG included, is a 415, and so is a body whose first bytes are not the ' +
        'image its type says; one that does not decode is a 422 `UNDECODABLE_IMAGE`. It is decoded, turned ' +
        'upright, fitted into 512x512 and encoded again with no metadata (EXIF, GPS, ICC: none is kept), ' +
        "then shown on the public page and in customers' emails with the business's name as its text.",
      action: 'manage_business',
      upload: { types: LOGO_TYPES, maxBytes: LOGO_MAX_BYTES },
      errors: [422],
      responses: [{ status: 200, description: 'The logo as stored', json: logoSchema }],
      handler: async ({ principal, upload, db, services }) => {
        const logo = await setLogo(db, principal.businessId, principal, upload!);
        const url = services.publicBaseUrl + logoPath(principal.businessId, logo);
        return ok({ url, content_type: logo.content_type, width: logo.width, height: logo.height });
      },
    }),
    defineRoute({
      ...common,
      path: `${common.path}/logo`,
      method: 'delete',
      operationId: 'deleteBusinessLogo',
      summary: "Remove the business's logo",
      description: 'The page and emails show the name alone again. Without a logo, nothing changes: a 204 too.',
      action: 'manage_business',
      responses: [{ status: 204, description: 'No logo any more' }],
      handler: async ({ principal, db }) => {
        await removeLogo(db, principal.businessId, principal);
        return noContent();
      },
    }),
  ],
};
