import { z } from 'zod';

/**
 * What a suggestion or an issue shows of its tags (src/tags): their names in the business's own
 * spelling, alphabetically ignoring case. In shared/ because both items' column maps show it and
 * src/tags depends on neither.
 */
export const itemTags = z
  .array(z.string())
  .meta({ description: 'The names of its tags, alphabetically ignoring case (docs/tags.md)', examples: [['terrace']] });

/**
 * The list filter of every tag named (a text[] of names as the items carry them): one containment,
 * answered by the (business_id, tags) GIN index of migration 0026.
 */
export const TAG_CONDITION = 'tags @> ?::text[]';
