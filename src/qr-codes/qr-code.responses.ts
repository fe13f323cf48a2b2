import { z } from 'zod';
import { offsetEnvelopeSchema, timestamp } from '../http/responses.js';
import { uuid } from '../shared/schemas.js';
import { QR_LABEL_MAX } from './qr-code.schemas.js';

/** What toQrCodeResponse returns, field by field. */
export const qrCodeSchema = z
  .object({
    id: uuid,
    label: z.string().max(QR_LABEL_MAX),
    code: z
      .string()
      .regex(/^[0-9A-Za-z]{10}$/)
      .meta({ description: 'The short code in the public URL' }),
    url: z.url().meta({ description: 'The public feedback page the code leads to: `<PUBLIC_BASE_URL>/f/<code>`' }),
    location_id: uuid.nullable(),
    active: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'QrCode', description: 'A QR code leading customers to the feedback page' });
export type QrCode = z.infer<typeof qrCodeSchema>;

export const qrCodeOffsetPageSchema = offsetEnvelopeSchema(qrCodeSchema, 'QrCodeOffsetPage');
