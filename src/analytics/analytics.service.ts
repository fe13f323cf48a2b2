import type pg from 'pg';
import {
  countByStatus,
  countCreatedSince,
  countUnscored,
  sentimentTotals,
  type SentimentTotals,
  type StatusCount,
} from '../counts/counts.repository.js';
import {
  entityActivity,
  latestActivity,
  pageFiguresByLocation,
  type ActivityRow,
  type LocationPageRow,
} from './analytics.repository.js';

const RECENT_ACTIVITY = 20;
const DAY_MS = 86_400_000;

export interface Overview {
  suggestions: StatusCount[];
  issues: StatusCount[];
  sentiments: SentimentTotals[];
  /** Suggestions no lexicon scored, inside the `neutral` of sentiments (countUnscored). */
  unscored: number;
  /** Created in the last 7 and 30 days. */
  recentSuggestions: number[];
  recentIssues: number[];
  activity: ActivityRow[];
  /** The public feedback page over 30 days, per location. */
  page: LocationPageRow[];
}

/**
 * Every figure comes from the counters (src/counts), so the overview costs the same for a business
 * with ten suggestions or a million, the unscored suggestions included (their own counter, 0071).
 */
export async function analyticsOverview(pool: pg.Pool, businessId: string): Promise<Overview> {
  const now = Date.now();
  const windows = [new Date(now - 7 * DAY_MS), new Date(now - 30 * DAY_MS)];
  const [suggestions, issues, sentiments, unscored, recentSuggestions, recentIssues, activity, page] =
    await Promise.all([
      countByStatus(pool, businessId, 'suggestion'),
      countByStatus(pool, businessId, 'issue'),
      sentimentTotals(pool, businessId),
      countUnscored(pool, businessId),
      countCreatedSince(pool, 'suggestion', businessId, windows, { inclusive: true }),
      countCreatedSince(pool, 'issue', businessId, windows, { inclusive: true }),
      latestActivity(pool, businessId, RECENT_ACTIVITY),
      pageFiguresByLocation(pool, businessId),
    ]);
  return { suggestions, issues, sentiments, unscored, recentSuggestions, recentIssues, activity, page };
}

/** The most history entries a page shows for one suggestion or issue. */
export const HISTORY_LIMIT = 200;

/** What happened to one suggestion or issue, oldest first: who did what, and each change's values. */
export function entityHistory(pool: pg.Pool, businessId: string, entityType: 'suggestion' | 'issue', entityId: string) {
  return entityActivity(pool, businessId, entityType, entityId, HISTORY_LIMIT);
}

/** Suggestions and issues created in each of the last `weeks` weeks, oldest first, from the counters. */
export async function createdPerWeek(pool: pg.Pool, businessId: string, weeks: number, now = Date.now()) {
  // Bounds from the oldest week's start to the newest's; each week is the difference of two counts.
  const bounds = Array.from({ length: weeks }, (_, i) => new Date(now - (weeks - i) * 7 * DAY_MS));
  const [suggestions, issues] = await Promise.all([
    countCreatedSince(pool, 'suggestion', businessId, bounds, { inclusive: true }),
    countCreatedSince(pool, 'issue', businessId, bounds, { inclusive: true }),
  ]);
  const perWeek = (since: number[]) => since.map((count, i) => count - (since[i + 1] ?? 0));
  return bounds.map((start, i) => ({
    start,
    suggestions: perWeek(suggestions)[i] ?? 0,
    issues: perWeek(issues)[i] ?? 0,
  }));
}
