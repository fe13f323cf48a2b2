import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { offsetEnvelopeSchema, timestamp } from '../shared/responses.js';
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
    scans_last_30_days: z.int().min(0).meta({
      description: 'Opens of its feedback page in the last 30 days (UTC, today included); counted in batches',
    }),
  })
  .meta({
    id: 'QrCode',
    description: 'A QR code leading customers to the feedback page',
    examples: [
      {
        id: EXAMPLE.qrCodeId,
        label: 'Terrace, table 4',
        code: 'k3Fz9QbT2w',
        url: 'https://feedback.cafe-soleil.example/f/k3Fz9QbT2w',
        location_id: EXAMPLE.locationId,
        active: true,
        created_at: EXAMPLE.createdAt,
        updated_at: EXAMPLE.createdAt,
        scans_last_30_days: 312,
      },
    ],
  });
export type QrCode = z.infer<typeof qrCodeSchema>;

export const qrCodeOffsetPageSchema = offsetEnvelopeSchema(qrCodeSchema, 'QrCodeOffsetPage');
