import type { SuggestionRow } from './suggestion.repository.js';
import type { Suggestion, SuggestionDashboard, SuggestionListItem } from './suggestion.responses.js';

/** List items: exactly the fields of spec 4.2, in its order (no is_anonymous). */
export function toSuggestionListItem(s: SuggestionRow): SuggestionListItem {
  return {
    id: s.id,
    content: s.content,
    status: s.status,
    priority: s.priority,
    sentiment: s.sentiment,
    sentiment_score: s.sentiment_score,
    customer_name: s.customer_name,
    customer_email: s.customer_email,
    upvote_count: s.upvote_count,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

/** The single-item read: the list fields plus is_anonymous (spec 2.1). */
export function toSuggestionResponse(s: SuggestionRow): Suggestion {
  const { created_at, updated_at, ...rest } = toSuggestionListItem(s);
  return { ...rest, is_anonymous: s.is_anonymous, created_at, updated_at };
}

/** The business-scoped family also shows what the dashboard manages: visibility, review, location. */
export function toSuggestionDashboardResponse(s: SuggestionRow): SuggestionDashboard {
  const { created_at, updated_at, ...rest } = toSuggestionResponse(s);
  return {
    ...rest,
    visibility: s.visibility,
    review_state: s.review_state,
    location_id: s.location_id,
    created_at,
    updated_at,
  };
}
