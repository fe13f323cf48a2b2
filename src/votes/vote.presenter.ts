import type { VoteRow } from './vote.repository.js';
import type { Vote } from './vote.responses.js';

/** Every field listed: an anonymous vote shows nothing of its voter. */
export function toVoteResponse(row: VoteRow): Vote {
  return {
    id: row.id,
    suggestion_id: row.suggestion_id,
    voter_type: row.voter_type,
    email: row.voter_email,
    external_id: row.voter_external_id,
    name: row.voter_name,
    created_at: row.created_at.toISOString(),
  };
}
