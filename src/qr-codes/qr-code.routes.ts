import { resourceFeature } from '../http/resource-routes.js';
import { media } from '../http/reply.js';
import { defineRoute } from '../http/route.js';
import { toQrCodeResponse } from './qr-code.presenter.js';
import type { QrCodeRow } from './qr-code.repository.js';
import { qrCodeOffsetPageSchema, qrCodeSchema } from './qr-code.responses.js';
import { createQrCodeBody, listQrCodesQuery, qrImageQuery, updateQrCodeBody } from './qr-code.schemas.js';
import {
  changeQrCode,
  createQrCode,
  getQrCode,
  listQrCodes,
  qrCodeUrl,
  removeQrCode,
  renderQrCode,
} from './qr-code.service.js';

const image = defineRoute({
  tag: 'QR codes',
  guard: 'business',
  method: 'get',
  path: '/businesses/:business_id/qr-codes/:id/image',
  resource: 'QR code',
  operationId: 'getQrCodeImage',
  summary: 'Render a QR code as SVG or PNG',
  action: 'read',
  query: qrImageQuery,
  queryNotes: { size: 'Width and height in pixels' },
  responses: [
    {
      status: 200,
      description: 'The image, encoding the public URL of the code',
      media: {
        'image/svg+xml': {
          schema: { type: 'string', contentMediaType: 'image/svg+xml' },
          example:
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29" width="256" height="256" ' +
            'shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h29v29H0z"/>' +
            '<path stroke="#000000" d="M4 4.5h7m1 0h1m2 0h2m1 0h7"/></svg>',
        },
        // A binary image has no example a JSON document could hold.
        'image/png': { schema: { type: 'string', format: 'binary' } },
      },
    },
  ],
  handler: async ({ principal, query: { format, size }, services, id, db }) => {
    const qr = await getQrCode(db, principal.businessId, id);
    const image = await renderQrCode(qrCodeUrl(services.publicBaseUrl, qr.code), format, size);
    return media(format === 'svg' ? 'image/svg+xml' : 'image/png', image);
  },
});

/** /businesses/:business_id/qr-codes: codes that lead customers to the feedback page. */
export const qrCodeFeature = resourceFeature({
  path: '/qr-codes',
  tag: { name: 'QR codes', description: 'Codes that lead customers to the public feedback page' },
  resource: 'QR code',
  noun: 'QR code',
  plural: 'QR codes',
  access: { read: 'read', write: 'write' },
  schema: qrCodeSchema,
  present: (row: QrCodeRow, services) => toQrCodeResponse(row, services.publicBaseUrl),
  list: {
    operationId: 'listQrCodes',
    summary: 'List QR codes',
    query: listQrCodesQuery,
    queryNotes: { active: 'Only active (`true`) or inactive (`false`) codes' },
    json: qrCodeOffsetPageSchema,
    run: ({ principal, query: { limit, offset, order, active }, db }) =>
      listQrCodes(db, principal.businessId, { active }, { sort: 'created_at', order, limit, offset }),
  },
  create: {
    operationId: 'createQrCode',
    summary: 'Create a QR code',
    body: createQrCodeBody,
    run: ({ principal, body, services, db }) => createQrCode(db, principal, body, services.publicBaseUrl),
  },
  get: {
    operationId: 'getQrCode',
    summary: 'Read a QR code',
    run: ({ principal, id, db }) => getQrCode(db, principal.businessId, id),
  },
  update: {
    operationId: 'updateQrCode',
    summary: 'Rename, activate or deactivate a QR code',
    description: 'Give at least one of `label`, `active`.',
    body: updateQrCodeBody,
    run: ({ principal, body, services, id, db }) => changeQrCode(db, principal, id, body, services.publicBaseUrl),
  },
  remove: {
    operationId: 'deleteQrCode',
    summary: 'Delete a QR code',
    run: ({ principal, services, id, db }) => removeQrCode(db, principal, id, services.publicBaseUrl),
  },
  more: [image],
});
