import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { BUSINESS_COLUMN_MAP } from './business.columns.js';

/** What toBusinessResponse returns. */
export const businessSchema = z.object(fieldsOf(BUSINESS_COLUMN_MAP, ['read'])).meta({
  id: 'Business',
  description: 'A business and its settings',
  examples: [
    {
      id: EXAMPLE.businessId,
      name: EXAMPLE.businessName,
      plan: 'business',
      approval_required: true,
      notify_followers: true,
      roadmap_enabled: true,
      roadmap_statuses: ['reviewing', 'in_progress', 'completed'],
      brand_color: '#1d5e34',
      default_language: 'en',
      created_at: EXAMPLE.createdAt,
      updated_at: EXAMPLE.updatedAt,
    },
  ],
});
export type Business = z.infer<typeof businessSchema>;
