import { offsetEnvelope } from '../http/params.js';
import { created, media, noContent, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toQrCodeResponse } from './qr-code.presenter.js';
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

const base = '/businesses/:business_id/qr-codes';
const common = { tag: 'QR codes', guard: 'business' } as const;
const one = { ...common, path: `${base}/:id`, resource: 'QR code' } as const;

/** /businesses/:business_id/qr-codes: codes that lead customers to the feedback page. */
export const qrCodeFeature: Feature = {
  tags: [{ name: 'QR codes', description: 'Codes that lead customers to the public feedback page' }],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: base,
      operationId: 'listQrCodes',
      summary: 'List QR codes',
      action: 'read',
      query: listQrCodesQuery,
      queryNotes: { active: 'Only active (`true`) or inactive (`false`) codes' },
      responses: [{ status: 200, description: 'A slice of the QR codes', json: qrCodeOffsetPageSchema }],
      handler: async ({ principal, query: { limit, offset, order, active }, services, db }) => {
        const page = { sort: 'created_at', order, limit, offset } as const;
        const result = await listQrCodes(db, principal.businessId, { active }, page);
        const data = result.rows.map((row) => toQrCodeResponse(row, services.publicBaseUrl));
        return ok(offsetEnvelope(data, result.total, limit, offset));
      },
    }),
    defineRoute({
      ...one,
      method: 'get',
      operationId: 'getQrCode',
      summary: 'Read a QR code',
      action: 'read',
      responses: [{ status: 200, description: 'The QR code', json: qrCodeSchema }],
      handler: async ({ principal, services, id, db }) =>
        ok(toQrCodeResponse(await getQrCode(db, principal.businessId, id), services.publicBaseUrl)),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: `${base}/:id/image`,
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
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: base,
      operationId: 'createQrCode',
      summary: 'Create a QR code',
      action: 'write',
      body: createQrCodeBody,
      responses: [
        {
          status: 201,
          description: 'The new QR code',
          json: qrCodeSchema,
          headers: {
            Location: {
              description: `The new QR code: \`${base.replace(':business_id', '{business_id}')}/{id}\``,
              required: true,
            },
          },
        },
      ],
      handler: async ({ baseUrl, principal, body, services, db }) => {
        const qr = await createQrCode(db, principal, body, services.publicBaseUrl);
        return created(toQrCodeResponse(qr, services.publicBaseUrl), `${baseUrl}/qr-codes/${qr.id}`);
      },
    }),
    defineRoute({
      ...one,
      method: 'patch',
      operationId: 'updateQrCode',
      summary: 'Rename, activate or deactivate a QR code',
      description: 'Give at least one of `label`, `active`.',
      action: 'write',
      body: updateQrCodeBody,
      responses: [{ status: 200, description: 'The updated QR code', json: qrCodeSchema }],
      handler: async ({ principal, body, services, id, db }) => {
        const qr = await changeQrCode(db, principal, id, body, services.publicBaseUrl);
        return ok(toQrCodeResponse(qr, services.publicBaseUrl));
      },
    }),
    defineRoute({
      ...one,
      method: 'delete',
      operationId: 'deleteQrCode',
      summary: 'Delete a QR code',
      action: 'write',
      responses: [{ status: 204, description: 'Deleted' }],
      handler: async ({ principal, services, id, db }) => {
        await removeQrCode(db, principal, id, services.publicBaseUrl);
        return noContent();
      },
    }),
  ],
};
