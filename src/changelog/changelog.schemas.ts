import { z } from 'zod';
import { offsetParams, oneLine, pageParams, patchBody, uuid } from '../shared/schemas.js';
import { CHANGELOG_BODY_MAX, CHANGELOG_SUGGESTIONS_MAX, CHANGELOG_TITLE_MAX } from './changelog.columns.js';

/** Markdown as sent: at most 20,000 characters (code points, as the document's maxLength counts), no NUL. */
const markdownBody = z
  .string()
  .refine((value) => [...value].length <= CHANGELOG_BODY_MAX, {
    message: `must be at most ${CHANGELOG_BODY_MAX} characters`,
    params: { code: 'too_long', max: CHANGELOG_BODY_MAX },
  })
  .refine((value) => !value.includes('\u0000'), {
    message: 'must not contain the NUL character',
    params: { code: 'nul_character' },
  })
  .meta({
    maxLength: CHANGELOG_BODY_MAX,
    description:
      `Markdown (CommonMark), at most ${CHANGELOG_BODY_MAX} characters: headings, lists, emphasis, code, quotes ` +
      'and links to http, https and mailto. Raw HTML is shown as text; another link (javascript:, a relative ' +
      'one) is shown as its Markdown text, not as a link',
  });

/** Suggestions of the business, each once: one that is another business's (or none's) is a 422 naming it. */
const suggestionIds = z
  .array(uuid.transform((id) => id.toLowerCase()))
  .max(CHANGELOG_SUGGESTIONS_MAX)
  .transform((ids) => [...new Set(ids)])
  .meta({
    description:
      `The suggestions the entry answers (at most ${CHANGELOG_SUGGESTIONS_MAX}), the business’s own: an id that ` +
      'is not is a 422 `UNKNOWN_SUGGESTION`. Repeated ids count once',
  });

/** How a publication goes: what it does to the suggestions it names and their followers. */
const publishing = {
  complete_suggestions: z
    .boolean()
    .default(false)
    .meta({
      description:
        'Also move every named suggestion to `completed`, as a status change by the caller (its `suggestion.updated` ' +
        'event, and its followers’ notice, which the entry’s email carries)',
    }),
  notify_followers: z
    .boolean()
    .default(true)
    .meta({
      description:
        'Email each confirmed follower of the named suggestions once about the entry (docs/changelog.md); ' +
        '`false` sends nothing, not even the notices of `complete_suggestions`',
    }),
};

export const publishChangelogBody = z
  .strictObject(publishing)
  .meta({ examples: [{ complete_suggestions: true, notify_followers: true }] });
export type PublishChangelogBody = z.output<typeof publishChangelogBody>;

export const createChangelogBody = z
  .strictObject({
    title: oneLine(CHANGELOG_TITLE_MAX),
    body: markdownBody.default(''),
    suggestion_ids: suggestionIds.default([]),
    publish: z.boolean().default(false).meta({
      description: 'Publish it at once (with `complete_suggestions` and `notify_followers`); otherwise a draft',
    }),
    ...publishing,
  })
  .meta({
    examples: [
      {
        title: 'Oat milk is here',
        body: 'You asked, we listened: **oat milk** at every counter.',
        suggestion_ids: ['0194b3f1-8d20-7b6a-a4c5-2f9e1d7c3b10'],
      },
    ],
  });
export type CreateChangelogBody = z.output<typeof createChangelogBody>;

export const updateChangelogBody = patchBody({
  title: oneLine(CHANGELOG_TITLE_MAX).optional(),
  body: markdownBody.optional(),
  suggestion_ids: suggestionIds.optional(),
}).meta({ examples: [{ title: 'Oat milk, and now soy too' }] });
export type UpdateChangelogBody = z.output<typeof updateChangelogBody>;

/** The dashboard family's list: every entry, drafts first, then the newest published. */
export const listChangelogOffsetQuery = z.strictObject({ ...offsetParams });
/** The /api/v1 list: published entries only, newest first (`order=asc`: oldest first). */
export const listChangelogQuery = z.strictObject({ ...pageParams });
