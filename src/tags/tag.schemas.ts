import { z } from 'zod';
import { ONE_LINE, oneLine, patchBody } from '../shared/schemas.js';
import { TAG_NAME_MAX, TAGS_PER_ITEM_MAX, tagColor } from './tag.columns.js';

/** The colour of a tag made without one: a neutral grey. */
export const DEFAULT_TAG_COLOR = '#64748b';

/**
 * A tag's name: one line, at most 50 characters, without `,` (the filter's separator) or `;` (the
 * CSV export's). The same rules, and the same trimming and NFC normalisation, for a name that defines
 * a tag and for one that names it in an item's body, so the two always compare alike.
 */
export const tagName = oneLine(TAG_NAME_MAX)
  .refine((name) => !/[,;]/.test(name), { message: 'must not contain "," or ";"', params: { code: 'tag_separator' } })
  .meta({ examples: ['terrace'] });

/** Tags named on an item's body: each once at most (ignoring case), an unknown one a 422 naming it. */
export const tagNames = z
  .array(tagName)
  .max(TAGS_PER_ITEM_MAX)
  .meta({
    description:
      `Tag names (at most ${TAGS_PER_ITEM_MAX}), matched ignoring case; a name the business has not ` +
      'defined is a 422 naming it. Reads show them in the tags’ own spelling, alphabetically',
  });

export const createTagBody = z
  .strictObject({
    name: tagName,
    color: tagColor.default(DEFAULT_TAG_COLOR),
    public: z.boolean().default(false),
  })
  .meta({ examples: [{ name: 'terrace', color: '#2f855a', public: true }] });
export type CreateTagBody = z.output<typeof createTagBody>;

export const updateTagBody = patchBody({
  name: tagName.optional(),
  color: tagColor.optional(),
  public: z.boolean().optional(),
}).meta({ examples: [{ name: 'Terrace', public: false }] });
export type UpdateTagBody = z.output<typeof updateTagBody>;

/** Adds and removes tags on one item, leaving its others as they are. */
export const changeItemTagsBody = z
  .strictObject({
    add: tagNames.optional(),
    remove: tagNames.optional(),
  })
  .refine((body) => (body.add?.length ?? 0) + (body.remove?.length ?? 0) > 0, {
    message: 'give at least one name in add or remove',
    params: { code: 'nothing_to_change' },
  })
  .meta({ minProperties: 1, examples: [{ add: ['terrace'], remove: ['coffee'] }] });
export type ChangeItemTagsBody = z.output<typeof changeItemTagsBody>;

/** What the reference says of `tag` (a query note: the schema's own description is lost in its union). */
export const TAG_FILTER_NOTE =
  'Only items carrying every named tag: repeat the parameter (`tag=terrace&tag=coffee`) or separate names ' +
  'with commas (`tag=terrace,coffee`); names match ignoring case, and one the business has not defined ' +
  'matches nothing. Combines with `q` and every other filter (all must match)';

/** A name as a tag's can be: one line (a NUL or a line break can never match, and the database refuses a NUL). */
const filterName = z
  .string()
  .refine(...ONE_LINE)
  .trim()
  .min(1, 'must name a tag')
  .max(TAG_NAME_MAX)
  .transform((name) => name.normalize('NFC'));

/**
 * The list filter `tag`: repeated (`tag=a&tag=b`) or comma-separated (`tag=a,b`), or both; an item
 * must carry every one. Names are matched ignoring case; one the business has not defined matches
 * nothing (a filter is a question, not a write: no 422).
 */
export const tagFilter = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')))
  .pipe(z.array(filterName).min(1).max(TAGS_PER_ITEM_MAX))
  .meta({ description: TAG_FILTER_NOTE });
