import type pg from 'pg';
import { ISSUE_STATUSES, SENTIMENTS, SUGGESTION_STATUSES } from '../shared/schemas.js';
import {
  countByStatus,
  countRecent,
  latestActivity,
  sentimentBreakdown,
  type ActivityRow,
  type CountRow,
} from './analytics.repository.js';
import type { AnalyticsOverview } from './analytics.responses.js';

const RECENT_ACTIVITY = 20;

/** Every status appears, zero when nothing has it, so dashboards need no defaulting. */
function byStatus<S extends string>(statuses: readonly S[], rows: CountRow[]) {
  const counts = Object.fromEntries(statuses.map((s) => [s, 0])) as Record<S, number>;
  for (const row of rows) counts[row.key as S] = row.count;
  return { total: rows.reduce((sum, row) => sum + row.count, 0), by_status: counts };
}

const toActivity = (a: ActivityRow): AnalyticsOverview['recent_activity'][number] => ({
  id: a.id,
  type: a.type,
  entity: { type: a.entity_type, id: a.entity_id },
  actor: {
    type: a.actor_api_key_id ? 'api_key' : a.actor_user_id ? 'user' : 'system',
    user_id: a.actor_user_id,
    name: a.actor_name,
    api_key_id: a.actor_api_key_id,
    api_key_name: a.actor_api_key_name,
  },
  created_at: a.created_at.toISOString(),
});

const round4 = (value: number | null | undefined) => (value == null ? null : Math.round(value * 1e4) / 1e4);

export async function analyticsOverview(pool: pg.Pool, businessId: string): Promise<AnalyticsOverview> {
  const [suggestions, issues, sentiments, recentSuggestions, recentIssues, activity] = await Promise.all([
    countByStatus(pool, businessId, 'suggestions'),
    countByStatus(pool, businessId, 'issues'),
    sentimentBreakdown(pool, businessId),
    countRecent(pool, businessId, 'suggestions'),
    countRecent(pool, businessId, 'issues'),
    latestActivity(pool, businessId, RECENT_ACTIVITY),
  ]);
  const sentiment = Object.fromEntries(
    SENTIMENTS.map((label) => {
      const row = sentiments.find((r) => r.sentiment === label);
      return [label, { count: row?.count ?? 0, average_score: round4(row?.average_score) }];
    }),
  ) as AnalyticsOverview['sentiment'];
  return {
    suggestions: byStatus(SUGGESTION_STATUSES, suggestions),
    issues: byStatus(ISSUE_STATUSES, issues),
    sentiment,
    created: {
      last_7_days: { suggestions: recentSuggestions.last_7_days, issues: recentIssues.last_7_days },
      last_30_days: { suggestions: recentSuggestions.last_30_days, issues: recentIssues.last_30_days },
    },
    recent_activity: activity.map(toActivity),
  };
}
