import { z } from 'zod';
import { BRAND_COLOR_PATTERN } from './brand.color.js';
import { oneLine, patchBody, SUGGESTION_STATUSES } from '../shared/schemas.js';
import { CUSTOMER_LANGUAGES } from '../shared/messages.js';

export const BUSINESS_NAME_MAX = 200;

/** The statuses a roadmap may show as columns: any but `rejected`, which the page never shows. */
export const ROADMAP_STATUSES = SUGGESTION_STATUSES.filter((status) => status !== 'rejected') as [
  'pending',
  'reviewing',
  'in_progress',
  'completed',
];
export type RoadmapStatus = (typeof ROADMAP_STATUSES)[number];
export const DEFAULT_ROADMAP_STATUSES: RoadmapStatus[] = ['reviewing', 'in_progress', 'completed'];

export const roadmapStatuses = z
  .array(z.enum(ROADMAP_STATUSES))
  .min(1)
  .max(ROADMAP_STATUSES.length)
  .refine((statuses) => new Set(statuses).size === statuses.length, {
    message: 'each status at most once',
    params: { code: 'duplicate_choice' },
  })
  .meta({
    description:
      "The roadmap's columns, in their order: one per status, each at most once, never `rejected`. " +
      '`completed` shows what was completed in the last 90 days.',
    examples: [DEFAULT_ROADMAP_STATUSES],
  });

export const defaultLanguage = z.enum(CUSTOMER_LANGUAGES).meta({
  description:
    'The language (ISO 639-1) the public page speaks to a visitor who asks for none this service has: ' +
    'no `?lang=`, no language cookie, no Accept-Language it has a catalogue for. Default `en`.',
  examples: ['en'],
});

export const updateBusinessBody = patchBody({
  name: oneLine(BUSINESS_NAME_MAX).optional(),
  approval_required: z
    .boolean()
    .optional()
    .meta({
      description:
        'Whether `public` suggestions wait for review before the public page shows them. Changing it never ' +
        'changes existing suggestions: what is published stays published, what awaits review still does.',
    }),
  notify_followers: z
    .boolean()
    .optional()
    .meta({
      description:
        'Whether customers who follow a suggestion by email are told when it moves. Off, nothing is sent to ' +
        'them (changes made meanwhile are not sent later); following stays possible.',
    }),
  roadmap_enabled: z
    .boolean()
    .optional()
    .meta({ description: 'Whether the public roadmap is shown (`/f/<code>/roadmap`, `GET /api/v1/roadmap`)' }),
  roadmap_statuses: roadmapStatuses.optional(),
  brand_color: z
    .string()
    .regex(BRAND_COLOR_PATTERN, { message: 'must be a colour as #RRGGBB' })
    .transform((color) => color.toLowerCase())
    .nullable()
    .optional()
    .meta({
      description:
        "The colour of the page's buttons and links, `#RRGGBB`; null for the page's own. Refused (422 " +
        "`LOW_CONTRAST`, naming the ratio) below 4.5:1 against the page's background (`#f6f5f2`) or against " +
        "the buttons' white text (WCAG AA).",
    }),
  default_language: defaultLanguage.optional(),
}).meta({ examples: [{ name: 'Café Soleil – Vieux Port', approval_required: true }] });
export type UpdateBusinessBody = z.output<typeof updateBusinessBody>;
