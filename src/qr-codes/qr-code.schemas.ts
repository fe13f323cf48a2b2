import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { offsetParams, oneLine, patchBody, queryInt, uuid } from '../shared/schemas.js';

export const QR_LABEL_MAX = 100;

export const listQrCodesQuery = z.strictObject({
  ...offsetParams,
  active: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});

export const createQrCodeBody = z
  .strictObject({
    label: oneLine(QR_LABEL_MAX),
    location_id: uuid.nullish().transform((value) => value ?? undefined),
    active: z.boolean().default(true),
  })
  .meta({ examples: [{ label: 'Terrace, table 4', location_id: EXAMPLE.locationId }] });
export type CreateQrCodeBody = z.output<typeof createQrCodeBody>;

export const updateQrCodeBody = patchBody({
  label: oneLine(QR_LABEL_MAX).optional(),
  active: z.boolean().optional(),
}).meta({ examples: [{ label: 'Terrace, table 5', active: false }] });
export type UpdateQrCodeBody = z.output<typeof updateQrCodeBody>;

export const qrImageQuery = z.strictObject({
  format: z.enum(['svg', 'png']).default('svg'),
  /** Width and height in pixels. */
  size: queryInt(64, 2048).default(256),
});
