import type { Feature } from '../openapi/operation.js';
import { qrCodeOffsetPageSchema, qrCodeSchema } from './qr-code.responses.js';
import { createQrCodeBody, listQrCodesQuery, qrImageQuery, updateQrCodeBody } from './qr-code.schemas.js';

const base = '/businesses/:business_id/qr-codes';
const common = { tag: 'QR codes', guard: 'business' as const };

export const qrCodeDocs: Feature = {
  tags: [{ name: 'QR codes', description: 'Codes that lead customers to the public feedback page' }],
  operations: [
    {
      ...common,
      method: 'get',
      path: base,
      operationId: 'listQrCodes',
      summary: 'List QR codes',
      action: 'read',
      query: listQrCodesQuery,
      queryNotes: { active: 'Only active (`true`) or inactive (`false`) codes' },
      responses: [{ status: 200, description: 'A slice of the QR codes', json: qrCodeOffsetPageSchema }],
    },
    {
      ...common,
      method: 'get',
      path: `${base}/:id`,
      operationId: 'getQrCode',
      summary: 'Read a QR code',
      action: 'read',
      responses: [{ status: 200, description: 'The QR code', json: qrCodeSchema }],
    },
    {
      ...common,
      method: 'get',
      path: `${base}/:id/image`,
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
            'image/svg+xml': { type: 'string' },
            'image/png': { type: 'string', format: 'binary' },
          },
        },
      ],
    },
    {
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
    },
    {
      ...common,
      method: 'patch',
      path: `${base}/:id`,
      operationId: 'updateQrCode',
      summary: 'Rename, activate or deactivate a QR code',
      description: 'Give at least one of `label`, `active`.',
      action: 'write',
      body: updateQrCodeBody,
      responses: [{ status: 200, description: 'The updated QR code', json: qrCodeSchema }],
    },
    {
      ...common,
      method: 'delete',
      path: `${base}/:id`,
      operationId: 'deleteQrCode',
      summary: 'Delete a QR code',
      action: 'write',
      responses: [{ status: 204, description: 'Deleted' }],
    },
  ],
};
