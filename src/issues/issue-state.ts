import type { IssueStatus } from '../shared/schemas.js';

/** What happens to resolved_at: stamped now, kept, or cleared. */
export type ResolvedAtChange = 'stamp' | 'keep' | 'clear';

const OPEN_STATES: ReadonlySet<IssueStatus> = new Set(['open', 'assigned', 'in_progress']);

export interface IssueState {
  status: IssueStatus;
  assigneeId: string | null;
}

/**
 * The issue rules the spec leaves open:
 * - assigning someone to an `open` issue moves it to `assigned`; unassigning an `assigned` one moves
 *   it back to `open` (an explicit status in the same change wins);
 * - entering `resolved` stamps resolved_at; going back to an open state clears it; `closed` keeps it.
 */
export function nextIssueState(
  before: IssueState,
  change: { status?: IssueStatus; assigneeId?: string | null },
): IssueState & { resolvedAt: ResolvedAtChange } {
  const assigneeId = change.assigneeId === undefined ? before.assigneeId : change.assigneeId;
  let status = change.status ?? before.status;
  if (change.status === undefined && assigneeId !== before.assigneeId) {
    if (assigneeId !== null && before.status === 'open') status = 'assigned';
    if (assigneeId === null && before.status === 'assigned') status = 'open';
  }
  let resolvedAt: ResolvedAtChange = 'keep';
  if (status === 'resolved' && before.status !== 'resolved') resolvedAt = 'stamp';
  else if (OPEN_STATES.has(status)) resolvedAt = 'clear';
  return { status, assigneeId, resolvedAt };
}
