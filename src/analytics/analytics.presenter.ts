import type { StatusCount } from '../counts/counts.repository.js';
import { ISSUE_STATUSES, SENTIMENTS, SUGGESTION_STATUSES } from '../shared/schemas.js';
import type { ActivityRow } from './analytics.repository.js';
import type { AnalyticsOverview } from './analytics.responses.js';
import type { Overview } from './analytics.service.js';

/** Every status appears, zero when nothing has it, so dashboards need no defaulting. */
function byStatus<S extends string>(statuses: readonly S[], rows: StatusCount[]) {
  const counts = Object.fromEntries(statuses.map((s) => [s, 0])) as Record<S, number>;
  for (const row of rows) counts[row.key as S] = row.count;
  return { total: rows.reduce((sum, row) => sum + row.count, 0), by_status: counts };
}

const toActivity = (a: ActivityRow): AnalyticsOverview['recent_activity'][number] => ({
  id: a.id,
  type: a.type,
  entity: { type: a.entity_type, id: a.entity_id },
  actor: {
    type: a.actor_api_key_id ? 'api_key' : a.actor_user_id ? 'user' : a.actor_qr_code_id ? 'qr_code' : 'system',
    user_id: a.actor_user_id,
    name: a.actor_name,
    api_key_id: a.actor_api_key_id,
    api_key_name: a.actor_api_key_name,
    qr_code_id: a.actor_qr_code_id,
  },
  created_at: a.created_at.toISOString(),
});

const round4 = (value: number) => Math.round(value * 1e4) / 1e4;
const none = { count: 0, average_score: null };

export function toAnalyticsOverviewResponse(overview: Overview): AnalyticsOverview {
  const { sentiments, unscored, recentSuggestions, recentIssues } = overview;
  const sentiment = Object.fromEntries(
    SENTIMENTS.map((label) => {
      const row = sentiments.find((r) => r.sentiment === label);
      // the unscored are stored neutral with a score of 0: taken out of neutral's count, not its sum
      const count = (row?.count ?? 0) - (label === 'neutral' ? unscored : 0);
      return [label, row && count > 0 ? { count, average_score: round4(row.score_sum / count) } : none];
    }),
  ) as AnalyticsOverview['sentiment'];
  return {
    suggestions: byStatus(SUGGESTION_STATUSES, overview.suggestions),
    issues: byStatus(ISSUE_STATUSES, overview.issues),
    sentiment,
    sentiment_unscored: unscored,
    created: {
      last_7_days: { suggestions: recentSuggestions[0] ?? 0, issues: recentIssues[0] ?? 0 },
      last_30_days: { suggestions: recentSuggestions[1] ?? 0, issues: recentIssues[1] ?? 0 },
    },
    recent_activity: overview.activity.map(toActivity),
    public_page: {
      last_30_days: {
        scans: overview.page.reduce((sum, row) => sum + row.scans, 0),
        submissions: overview.page.reduce((sum, row) => sum + row.submissions, 0),
        by_location: overview.page.map((row) => ({
          location_id: row.location_id,
          name: row.name,
          scans: row.scans,
          submissions: row.submissions,
        })),
      },
    },
  };
}
