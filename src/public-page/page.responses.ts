import { z } from 'zod';
import { EXAMPLE } from '../shared/examples.js';
import { exampleOf, timestamp } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';
import { SUGGESTION_CONTENT_MAX, suggestionReplySchema } from '../suggestions/suggestion.columns.js';

/** What the page shows of a suggestion: never an email, never anything internal. */
export const publicSuggestionSchema = z
  .object({
    id: uuid,
    content: z.string().max(SUGGESTION_CONTENT_MAX),
    status: z.enum(['pending', 'reviewing', 'in_progress', 'completed']),
    status_label: z.string().meta({ description: 'The status in words, as the page shows it' }),
    customer_name: z.string().nullable().meta({ description: 'Only when the customer gave one' }),
    upvote_count: z.int().min(0),
    voted: z.boolean().meta({ description: 'Whether this browser (its voter cookie) has voted for it' }),
    created_at: timestamp,
    reply: suggestionReplySchema
      .nullable()
      .meta({ description: "The business's public answer, shown under the suggestion; null when none" }),
    tags: z
      .array(z.string())
      .meta({ description: 'Its tags that the business made public (`public: true`), alphabetically' }),
  })
  .meta({
    id: 'PublicSuggestion',
    description: 'A suggestion as the public feedback page shows it',
    examples: [
      {
        id: EXAMPLE.suggestionId,
        content: 'Could you add oat milk for the flat whites?',
        status: 'in_progress',
        status_label: 'In progress',
        customer_name: 'Ana',
        upvote_count: 4,
        voted: false,
        created_at: EXAMPLE.createdAt,
        reply: exampleOf(suggestionReplySchema),
        tags: ['terrace'],
      },
    ],
  });

const example = exampleOf(publicSuggestionSchema) as Record<string, unknown>;

/** A suggestion the page shows that is like what a visitor is typing: what the form shows beside it. */
export const similarPublicSuggestionSchema = publicSuggestionSchema
  .pick({ id: true, content: true, upvote_count: true, status: true })
  .meta({
    id: 'SimilarPublicSuggestion',
    description: 'A suggestion the page shows, like what is being typed',
    examples: [{ id: example.id, content: 'Vegan food please', upvote_count: 4, status: 'in_progress' }],
  });

export const similarPublicListSchema = z.object({ data: z.array(similarPublicSuggestionSchema).max(5) }).meta({
  id: 'SimilarPublicSuggestionList',
  description: 'Up to 5 suggestions the page shows, the most alike first',
  examples: [{ data: [exampleOf(similarPublicSuggestionSchema)] }],
});

export const publicPageSchema = z
  .object({
    business_name: z.string(),
    location_name: z.string().nullable(),
    sort: z.enum(['trending', 'top', 'new']),
    data: z.array(publicSuggestionSchema),
    total: z.int().min(0),
    limit: z.int().min(1),
    offset: z.int().min(0),
    next_offset: z.int().min(0).nullable().meta({ description: 'The `offset` of the next page; null on the last' }),
    form_token: z.string().meta({ description: 'To send with feedback (postPublicFeedback)' }),
  })
  .meta({
    id: 'PublicSuggestionPage',
    description: 'One page (20) of the suggestions the public feedback page shows',
    examples: [
      {
        business_name: EXAMPLE.businessName,
        location_name: 'Terrace',
        sort: 'trending',
        data: [example],
        total: 1,
        limit: 20,
        offset: 0,
        next_offset: null,
        form_token: '1767173400000.pQ7sLm2xVb9eRt4k.Xq2v6mJ0b1Tz0QkYp8V3sR9cW4eN7uHa5LdGf2KjM1o',
      },
    ],
  });

export const postedFeedbackSchema = z
  .object({
    id: uuid,
    awaiting_review: z.boolean().meta({ description: 'True when the business reviews feedback before showing it' }),
    suggestion: publicSuggestionSchema
      .nullable()
      .meta({ description: 'As the page shows it; null while awaiting review' }),
    posted_token: z.string().meta({
      description:
        'Proof that this client posted it: send it as `posted_token` to follow the suggestion while it awaits ' +
        'review. It starts one follow, once',
    }),
  })
  .meta({
    id: 'PostedFeedback',
    description: 'Feedback received from the public page',
    examples: [
      {
        id: EXAMPLE.suggestionId,
        awaiting_review: false,
        suggestion: { ...example, upvote_count: 0 },
        posted_token: 'pQ7sLm2xVb9eRt4kXq2v6mJ0b1Tz0QkYp8V3sR9cW4e',
      },
    ],
  });

export const pageVoteSchema = z
  .object({
    suggestion_id: uuid,
    voted: z.boolean(),
    upvote_count: z.int().min(0),
  })
  .meta({
    id: 'PublicVote',
    description: "This browser's vote on a suggestion, and the suggestion's count",
    examples: [{ suggestion_id: EXAMPLE.suggestionId, voted: true, upvote_count: 5 }],
  });
