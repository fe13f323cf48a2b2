import { z } from 'zod';
import { SUGGESTION_CONTENT_MAX } from '../suggestions/suggestion.columns.js';
import { CUSTOMER_NAME_MAX } from '../suggestions/suggestion.schemas.js';
import { email, nullToAbsent, optionalOneLine, queryInt, text, uuid } from '../shared/schemas.js';

/** A QR code's short code (10 base62 characters today; a little room for other lengths). */
export const qrCodeParam = z
  .string()
  .regex(/^[0-9A-Za-z]{4,64}$/)
  .meta({ description: "The QR code's short code, as in its URL `/f/<code>`" });

export const publicSort = z.enum(['trending', 'top', 'new']).default('trending');

/** Offset paging, 20 at a time; the last offset a "load more" can reach. */
export const MAX_PUBLIC_OFFSET = 10_000;
const offset = queryInt(0, MAX_PUBLIC_OFFSET).default(0);

/** The HTML page's query: unknown parameters (a campaign's utm_*) are ignored, not refused. */
/** A posted token's shape (a base64url HMAC): anything else is no proof. */
const postedProof = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const pageQuery = z.object({
  sort: publicSort.catch('trending'),
  offset: offset.catch(0),
  thanks: z.enum(['shown', 'review']).optional().catch(undefined),
  s: uuid.optional().catch(undefined),
  followed: z.enum(['1']).optional().catch(undefined),
  /** After a vote (without JavaScript): the suggestion voted for, whose follow form the page offers. */
  voted: uuid.optional().catch(undefined),
  /** After a post awaiting review: the proof that lets this browser follow it (page.security.ts). */
  posted: postedProof.optional().catch(undefined),
});

export const listPublicQuery = z.strictObject({ code: qrCodeParam, sort: publicSort, offset });

/** Fewer letters than this say too little to find anything like them. */
export const SIMILAR_MIN_LENGTH = 3;

/** What a visitor has typed so far, to find what the page already shows like it. */
export const similarQuery = z.strictObject({
  code: qrCodeParam,
  q: z
    .string()
    .trim()
    .min(SIMILAR_MIN_LENGTH)
    .max(SUGGESTION_CONTENT_MAX)
    .meta({ description: 'The feedback as typed so far: 3 to 2000 characters, spaces around left out' }),
});

/** The form's fields: the API's rules for content and name, and two that only bots fill or lack. */
const feedbackFields = {
  content: text(SUGGESTION_CONTENT_MAX),
  customer_name: nullToAbsent(optionalOneLine(CUSTOMER_NAME_MAX)),
  customer_email: nullToAbsent(email.optional()),
  website: z.string().max(500).optional().meta({ description: 'Leave empty: only bots fill this field' }),
  form_token: z
    .string()
    .max(200)
    .meta({
      description:
        "The `form_token` of the list (or of the page's form): feedback sent too soon after it is refused, " +
        'and it sends feedback once',
    }),
};

export const postFeedbackBody = z.strictObject({ code: qrCodeParam, ...feedbackFields }).meta({
  examples: [
    {
      code: 'k3Fz9QbT2w',
      content: 'Could you add oat milk for the flat whites?',
      customer_name: 'Ana',
      form_token: '1767173400000.pQ7sLm2xVb9eRt4k.Xq2v6mJ0b1Tz0QkYp8V3sR9cW4eN7uHa5LdGf2KjM1o',
    },
  ],
});
export type PostFeedbackBody = z.output<typeof postFeedbackBody>;

/** The HTML form posts the same fields, without the code (it is in the path). */
export const feedbackForm = z.strictObject(feedbackFields);

export const voteBody = z.strictObject({ code: qrCodeParam }).meta({ examples: [{ code: 'k3Fz9QbT2w' }] });
export const unvoteQuery = z.strictObject({ code: qrCodeParam });

/** The no-JavaScript vote form: add or take back, and where to come back to. */
export const voteForm = z.object({
  action: z.enum(['add', 'remove']),
  /** Sent from the roadmap (`/f/<code>/roadmap`): the vote comes back there. */
  back: z.enum(['roadmap']).optional().catch(undefined),
  sort: publicSort.catch('trending'),
  offset: offset.catch(0),
});

/** Following a suggestion by email (docs/notifications.md): the JSON side, and the page's form. */
export const followBody = z
  .strictObject({
    code: qrCodeParam,
    email,
    posted_token: postedProof.optional().meta({
      description:
        'The `posted_token` of the answer that posted this suggestion: lets its author follow it while it awaits ' +
        'review. It starts one follow, once: sent again, with any address, it is a 409 `POSTED_TOKEN_USED`',
    }),
  })
  .meta({ examples: [{ code: 'k3Fz9QbT2w', email: 'ana.lima@example.com' }] });

export const followForm = z.object({
  email,
  posted: postedProof.optional().catch(undefined),
  sort: publicSort.catch('trending'),
  offset: offset.catch(0),
});

/** A follow link's query: the signed token, and (unsubscribing) whether from the whole business. */
export const followLinkQuery = z.object({
  token: z.string().max(200),
  all: z.enum(['1']).optional().catch(undefined),
});
