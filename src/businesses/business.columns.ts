import { z } from 'zod';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import type { CustomerLanguage } from '../shared/messages.js';
import { PLANS, uuid, type Plan } from '../shared/schemas.js';
import { defaultLanguage, roadmapStatuses, type RoadmapStatus } from './business.schemas.js';
import { BUSINESS_NAME_MAX } from './business.schemas.js';

export interface BusinessRow {
  id: string;
  name: string;
  plan: Plan;
  approval_required: boolean;
  notify_followers: boolean;
  roadmap_enabled: boolean;
  roadmap_statuses: RoadmapStatus[];
  brand_color: string | null;
  default_language: CustomerLanguage;
  created_at: Date;
  updated_at: Date;
}

/** Every column of a business, as its read shows them: the select list, presenter and schema. */
export const BUSINESS_COLUMN_MAP = {
  id: { shownIn: 'read', schema: uuid },
  name: { shownIn: 'read', schema: z.string().max(BUSINESS_NAME_MAX) },
  plan: {
    shownIn: 'read',
    schema: z.enum(PLANS).meta({ description: 'API access (`/api/v1`) needs `business` or `enterprise`' }),
  },
  approval_required: {
    shownIn: 'read',
    schema: z
      .boolean()
      .meta({ description: 'Whether `public` suggestions wait for review before the public page shows them' }),
  },
  notify_followers: {
    shownIn: 'read',
    schema: z.boolean().meta({
      description: 'Whether customers who follow a suggestion by email hear when it moves (docs/notifications.md)',
    }),
  },
  roadmap_enabled: {
    shownIn: 'read',
    schema: z.boolean().meta({
      description:
        'Whether the public roadmap (`/f/<code>/roadmap`, `GET /api/v1/roadmap`) is shown; off, both are a 404',
    }),
  },
  roadmap_statuses: { shownIn: 'read', schema: roadmapStatuses },
  brand_color: {
    shownIn: 'read',
    schema: z.string().nullable().meta({
      description: "The page's buttons and links (`#rrggbb`, lower case); null is the page's own blue (docs/brand.md)",
    }),
  },
  default_language: { shownIn: 'read', schema: defaultLanguage },
  created_at: { shownIn: 'read', schema: timestamp, instant: true },
  updated_at: { shownIn: 'read', schema: timestamp, instant: true },
} satisfies ColumnMap<BusinessRow, 'read'>;
