import { LEXICON_LANGUAGES, type LexiconLanguage } from './sentiment.lexicons.js';
import { z } from 'zod';
import type { ColumnMap } from '../db/columns.js';
import { timestamp } from '../shared/responses.js';
import { itemTags } from '../shared/tags.js';
import {
  priority,
  sentiment,
  suggestionStatus,
  uuid,
  visibility,
  type Priority,
  type Sentiment,
  type SuggestionStatus,
  type Visibility,
} from '../shared/schemas.js';

/** The longest content, in characters: what a body may send and what a read may show. */
export const SUGGESTION_CONTENT_MAX = 2000;

export const REVIEW_STATES = ['not_required', 'pending', 'approved', 'rejected'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** The business's public answer to a suggestion, shown under it on the public page (issue 32). */
export const suggestionReplySchema = z
  .object({
    content: z.string().max(SUGGESTION_CONTENT_MAX),
    author_name: z.string().meta({ description: "The replying member's name; the business's name for an API key" }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'SuggestionReply',
    description: "The business's public reply, shown under the suggestion on the public page",
    examples: [
      {
        content: 'Oat milk arrives on Monday. Thank you for asking!',
        author_name: 'Ana Lima',
        created_at: '2026-01-31T10:15:00.000Z',
        updated_at: '2026-01-31T10:15:00.000Z',
      },
    ],
  });
export type SuggestionReply = z.infer<typeof suggestionReplySchema>;

export interface SuggestionRow {
  id: string;
  content: string;
  status: SuggestionStatus;
  priority: Priority;
  sentiment: Sentiment;
  sentiment_score: number;
  language: string | null;
  sentiment_lexicon: LexiconLanguage | null;
  customer_name: string | null;
  customer_email: string | null;
  upvote_count: number;
  /** Tag names in the tags' own spelling, alphabetically (migrations/0026_tags.sql). */
  tags: string[];
  is_anonymous: boolean;
  visibility: Visibility;
  review_state: ReviewState;
  location_id: string | null;
  created_at: Date;
  updated_at: Date;
  /** A jsonb object whose instants are already ISO 8601 text (migrations/0022_suggestion_reply.sql). */
  reply: SuggestionReply | null;
  follower_count: number;
  /** The suggestion this one is merged into (docs/decisions.md "Merging duplicates"), or null. */
  merged_into: string | null;
}

/**
 * Every column of a suggestion, in the order its reads show them, and the view that adds each: `list`
 * (spec 4.2, also exported), `read` (the single-item read, spec 2.1) and `dashboard` (what the
 * business-scoped family manages). Presenters, response schemas, the select list, the export's
 * records and the event object all come from here.
 */
export const SUGGESTION_COLUMN_MAP = {
  id: { shownIn: 'list', schema: uuid },
  content: { shownIn: 'list', schema: z.string().max(SUGGESTION_CONTENT_MAX) },
  status: { shownIn: 'list', schema: suggestionStatus },
  priority: { shownIn: 'list', schema: priority },
  sentiment: { shownIn: 'list', schema: sentiment },
  sentiment_score: {
    shownIn: 'list',
    schema: z.number().min(-1).max(1).meta({
      description: 'AFINN ratings (in the content’s language) per word / 5, 4 decimals; 0 when not scored',
    }),
  },
  language: {
    shownIn: 'list',
    schema: z
      .string()
      .regex(/^[a-z]{2}$/)
      .nullable()
      .meta({
        description: 'The content’s language (ISO 639-1), detected when written; null when the detector is not sure',
        examples: ['fr'],
      }),
  },
  sentiment_lexicon: {
    shownIn: 'list',
    schema: z
      .enum(LEXICON_LANGUAGES)
      .nullable()
      .meta({
        description:
          'The language whose lexicon scored `sentiment`; null when none could (a language without a lexicon, ' +
          'or none detected): then `sentiment` is `neutral` and `sentiment_score` 0, meaning not scored',
      }),
  },
  customer_name: { shownIn: 'list', schema: z.string().nullable() },
  customer_email: { shownIn: 'list', schema: z.string().nullable() },
  upvote_count: { shownIn: 'list', schema: z.int().min(0) },
  tags: { shownIn: 'list', schema: itemTags },
  is_anonymous: {
    shownIn: 'read',
    schema: z.boolean().meta({ description: 'True when neither customer_name nor customer_email was given' }),
  },
  visibility: { shownIn: 'dashboard', schema: visibility },
  review_state: { shownIn: 'dashboard', schema: z.enum(REVIEW_STATES) },
  location_id: { shownIn: 'dashboard', schema: uuid.nullable() },
  created_at: { shownIn: 'list', schema: timestamp, instant: true },
  updated_at: { shownIn: 'list', schema: timestamp, instant: true },
  reply: {
    shownIn: 'read',
    schema: suggestionReplySchema.nullable().meta({ description: "The business's public reply; null when none" }),
  },
  follower_count: {
    shownIn: 'read',
    schema: z
      .int()
      .min(0)
      .meta({ description: 'Customers who follow it by email and confirmed their address (docs/notifications.md)' }),
  },
  merged_into: {
    shownIn: 'read',
    schema: uuid.nullable().meta({
      description:
        'The suggestion it is merged into, which counts its votes and shows its comments; null when not merged',
    }),
  },
} satisfies ColumnMap<SuggestionRow, 'list' | 'read' | 'dashboard'>;
