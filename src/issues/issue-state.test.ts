import { describe, expect, it } from 'vitest';
import { nextIssueState } from './issue-state.js';

const A = '0190c7f0-0000-7000-8000-00000000000a';
const B = '0190c7f0-0000-7000-8000-00000000000b';

describe('nextIssueState', () => {
  it('When someone is assigned to an open issue, then it becomes assigned', () => {
    expect(nextIssueState({ status: 'open', assigneeId: null }, { assigneeId: A })).toEqual({
      status: 'assigned',
      assigneeId: A,
      resolvedAt: 'clear',
    });
  });

  it('When an issue in progress is reassigned, then its status stays', () => {
    expect(nextIssueState({ status: 'in_progress', assigneeId: A }, { assigneeId: B }).status).toBe('in_progress');
  });

  it('When an assigned issue is unassigned, then it is open again', () => {
    expect(nextIssueState({ status: 'assigned', assigneeId: A }, { assigneeId: null }).status).toBe('open');
  });

  it('When a status is given with the assignee, then the explicit status wins', () => {
    expect(nextIssueState({ status: 'open', assigneeId: null }, { assigneeId: A, status: 'in_progress' }).status).toBe(
      'in_progress',
    );
  });

  it('When an issue enters resolved, then resolved_at is stamped; staying resolved keeps it', () => {
    expect(nextIssueState({ status: 'in_progress', assigneeId: A }, { status: 'resolved' }).resolvedAt).toBe('stamp');
    expect(nextIssueState({ status: 'resolved', assigneeId: A }, { status: 'resolved' }).resolvedAt).toBe('keep');
  });

  it.each(['open', 'assigned', 'in_progress'] as const)(
    'When a resolved issue goes back to %s, then resolved_at clears',
    (status) => {
      expect(nextIssueState({ status: 'resolved', assigneeId: A }, { status }).resolvedAt).toBe('clear');
    },
  );

  it('When a resolved issue is closed, then resolved_at is kept', () => {
    expect(nextIssueState({ status: 'resolved', assigneeId: A }, { status: 'closed' }).resolvedAt).toBe('keep');
  });
});
