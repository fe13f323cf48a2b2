import { toReplyResponse } from '../suggestions/suggestion.presenter.js';
import type { PublicItem } from './page.service.js';

/** The words the page uses for each status a customer can see. */
export const STATUS_LABELS = {
  pending: 'Received',
  reviewing: 'Under review',
  in_progress: 'In progress',
  completed: 'Done',
} as const;

export function toPublicSuggestion(item: PublicItem) {
  return {
    id: item.id,
    content: item.content,
    status: item.status,
    status_label: STATUS_LABELS[item.status],
    customer_name: item.customer_name,
    upvote_count: item.upvote_count,
    voted: item.voted,
    created_at: item.created_at.toISOString(),
    reply: toReplyResponse(item.reply),
    tags: item.tags,
  };
}
