import { presenterOf } from '../db/columns.js';
import { SUGGESTION_COLUMN_MAP, type SuggestionReply, type SuggestionRow } from './suggestion.columns.js';
import type { Suggestion, SuggestionDashboard, SuggestionListItem } from './suggestion.responses.js';

// Each read shows exactly the columns its views add in SUGGESTION_COLUMN_MAP, in the map's order.
const listItem = presenterOf(SUGGESTION_COLUMN_MAP, ['list']);
const read = presenterOf(SUGGESTION_COLUMN_MAP, ['list', 'read']);
const dashboard = presenterOf(SUGGESTION_COLUMN_MAP, ['list', 'read', 'dashboard']);

/** The reply in its schema's order (jsonb keeps no key order). */
export function toReplyResponse(reply: SuggestionReply | null): SuggestionReply | null {
  if (!reply) return null;
  return {
    content: reply.content,
    author_name: reply.author_name,
    created_at: reply.created_at,
    updated_at: reply.updated_at,
  };
}

/** List items: exactly the fields of spec 4.2, in its order (no is_anonymous). */
export function toSuggestionListItem(s: SuggestionRow): SuggestionListItem {
  return listItem(s);
}

/** The single-item read: the list fields plus is_anonymous (spec 2.1). */
export function toSuggestionResponse(s: SuggestionRow): Suggestion {
  return { ...read(s), reply: toReplyResponse(s.reply) };
}

/** The business-scoped family also shows what the dashboard manages: visibility, review, location. */
export function toSuggestionDashboardResponse(s: SuggestionRow): SuggestionDashboard {
  return { ...dashboard(s), reply: toReplyResponse(s.reply) };
}
