import { presenterOf } from '../db/columns.js';
import { ISSUE_COLUMN_MAP, type IssueRow } from './issue.columns.js';
import type { Issue, IssueListItem } from './issue.responses.js';

// Each read shows exactly the columns its views add in ISSUE_COLUMN_MAP, in the map's order.
const listItem = presenterOf(ISSUE_COLUMN_MAP, ['list']);
const read = presenterOf(ISSUE_COLUMN_MAP, ['list', 'read']);

/** List items: exactly the fields of spec 4.3, in its order (no is_anonymous). */
export function toIssueListItem(issue: IssueRow): IssueListItem {
  return listItem(issue);
}

/** The single-item read: spec 2.2, including is_anonymous. */
export function toIssueResponse(issue: IssueRow): Issue {
  return read(issue);
}
