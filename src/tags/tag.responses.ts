import { z } from 'zod';
import { fieldsOf } from '../db/columns.js';
import { EXAMPLE } from '../shared/examples.js';
import { TAG_COLUMN_MAP } from './tag.columns.js';

const tagExample = {
  id: EXAMPLE.tagId,
  name: 'terrace',
  color: '#2f855a',
  public: true,
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.createdAt,
};

/** What toTagResponse returns. */
export const tagSchema = z.object(fieldsOf(TAG_COLUMN_MAP, ['read'])).meta({
  id: 'Tag',
  description: 'A label the business sorts suggestions and issues by; items name it in their `tags`',
  examples: [tagExample],
});
export type Tag = z.infer<typeof tagSchema>;

/** Every tag of the business, alphabetically (ignoring case): never more than 200, so never paged. */
export const tagListSchema = z.object({ data: z.array(tagSchema) }).meta({
  id: 'TagList',
  description: 'Every tag of the business, alphabetically ignoring case',
  examples: [{ data: [tagExample] }],
});
