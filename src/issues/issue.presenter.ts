import type { IssueRow } from './issue.repository.js';
import type { Issue, IssueListItem } from './issue.responses.js';

/** List items: exactly the fields of spec 4.3, in its order (no is_anonymous). */
export function toIssueListItem(issue: IssueRow): IssueListItem {
  return {
    id: issue.id,
    title: issue.title,
    description: issue.description,
    status: issue.status,
    priority: issue.priority,
    assignee_id: issue.assignee_id,
    customer_name: issue.customer_name,
    customer_email: issue.customer_email,
    resolved_at: issue.resolved_at?.toISOString() ?? null,
    created_at: issue.created_at.toISOString(),
    updated_at: issue.updated_at.toISOString(),
  };
}

/** The single-item read: spec 2.2, including is_anonymous. */
export function toIssueResponse(issue: IssueRow): Issue {
  const { resolved_at, created_at, updated_at, ...rest } = toIssueListItem(issue);
  return { ...rest, is_anonymous: issue.is_anonymous, resolved_at, created_at, updated_at };
}
