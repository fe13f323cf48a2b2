import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { timestamp } from '../shared/responses.js';
import { PLANS, uuid } from '../shared/schemas.js';
import { BUSINESS_NAME_MAX } from './business.schemas.js';

/** What toBusinessResponse returns, field by field. */
export const businessSchema = z
  .object({
    id: uuid,
    name: z.string().max(BUSINESS_NAME_MAX),
    plan: z.enum(PLANS).meta({ description: 'API access (`/api/v1`) needs `business` or `enterprise`' }),
    approval_required: z
      .boolean()
      .meta({ description: 'Whether `public` suggestions wait for review before the public page shows them' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'Business',
    description: 'A business and its settings',
    examples: [
      {
        id: EXAMPLE.businessId,
        name: EXAMPLE.businessName,
        plan: 'business',
        approval_required: true,
        created_at: EXAMPLE.createdAt,
        updated_at: EXAMPLE.updatedAt,
      },
    ],
  });
export type Business = z.infer<typeof businessSchema>;
