import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';

/** What PUT /businesses/{id}/logo answers: the logo as stored and where it is served. */
export const logoSchema = z
  .object({
    url: z.string().meta({
      description:
        'Where the logo is served, from this service; its hash changes with its bytes, so it is cached for a year',
    }),
    content_type: z.enum(['image/png', 'image/jpeg']).meta({
      description: 'A PNG stays a PNG and a JPEG a JPEG; a WebP becomes a PNG (with transparency) or a JPEG',
    }),
    width: z.number().int().meta({ description: 'In pixels, at most 512' }),
    height: z.number().int().meta({ description: 'In pixels, at most 512' }),
  })
  .meta({
    id: 'Logo',
    description: "The business's logo, re-encoded: at most 512x512, no metadata",
    examples: [
      {
        url: `https://feedback.example.com/brand/${EXAMPLE.businessId}/logo.3f9a0c2b7d1e4a65.png`,
        content_type: 'image/png',
        width: 512,
        height: 256,
      },
    ],
  });
