import { DEFAULT_LOCALE, t } from '../shared/messages.js';
import { toReplyResponse } from '../suggestions/suggestion.presenter.js';
import type { PublicItem } from './page.service.js';

/** A suggestion as the page shows it, its status in the reader's words (`page.status.*`). */
export function toPublicSuggestion(item: PublicItem, locale = DEFAULT_LOCALE) {
  return {
    id: item.id,
    content: item.content,
    status: item.status,
    status_label: t(`page.status.${item.status}`, undefined, locale),
    customer_name: item.customer_name,
    upvote_count: item.upvote_count,
    voted: item.voted,
    created_at: item.created_at.toISOString(),
    reply: toReplyResponse(item.reply),
    tags: item.tags,
  };
}
