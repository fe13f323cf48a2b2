import type { SessionListRow } from './profile.repository.js';
import type { SessionList } from './profile.responses.js';
import { summariseUserAgent } from './user-agent.js';

export const toSessionListResponse = (rows: (SessionListRow & { current: boolean })[]): SessionList => ({
  data: rows.map((row) => ({
    id: row.id,
    current: row.current,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    ip: row.last_ip,
    device: summariseUserAgent(row.last_user_agent),
  })),
});
