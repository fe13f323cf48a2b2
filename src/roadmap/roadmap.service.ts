import type pg from 'pg';
import type { ListCache } from '../cache/list-cache.js';
import type { RoadmapStatus } from '../businesses/business.schemas.js';
import { notFound } from '../errors/http-error.js';
import { t } from '../shared/messages.js';
import type { SuggestionRow } from '../suggestions/suggestion.columns.js';
import { countColumns, findColumnItems, findRoadmapSettings, type RoadmapSettings } from './roadmap.repository.js';

/** Each column shows its first 20 suggestions by votes. */
export const COLUMN_SIZE = 20;
/** `completed` shows what was completed in the last 90 days. */
export const COMPLETED_DAYS = 90;

export interface RoadmapColumn {
  status: RoadmapStatus;
  /** The column's heading, from the catalogue (`roadmap.column.<status>`). */
  title: string;
  total: number;
  rows: SuggestionRow[];
}

/**
 * Where `completed` starts: 90 days before the start of today (UTC). A whole day, so that a roadmap
 * read in the morning and one read at night list the same completions, and a cached one stays exact
 * until midnight (its cache key holds the day).
 */
export function completedSince(now: Date): Date {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(day - COMPLETED_DAYS * 86_400_000);
}

/** The UTC day `now` falls on: the part of a cached roadmap's key that the clock moves. */
export const roadmapDay = (now: Date): string => now.toISOString().slice(0, 10);

export const roadmapNotFound = () => notFound('Roadmap');

/** The roadmap's columns, in the business's order, each with its exact total and first COLUMN_SIZE. */
export async function readRoadmap(
  db: pg.Pool,
  businessId: string,
  statuses: RoadmapStatus[],
  now: Date,
): Promise<RoadmapColumn[]> {
  const since = completedSince(now);
  const [rows, totals] = await Promise.all([
    findColumnItems(db, businessId, statuses, since, COLUMN_SIZE),
    countColumns(db, businessId, statuses, since),
  ]);
  return statuses.map((status) => ({
    status,
    title: t(`roadmap.column.${status}`),
    total: totals.get(status) ?? 0,
    rows: rows.filter((row) => row.column_status === status),
  }));
}

/** A business's settings, or its 404. */
export async function roadmapSettings(db: pg.Pool, businessId: string): Promise<RoadmapSettings> {
  const settings = await findRoadmapSettings(db, businessId);
  if (!settings) throw notFound('Business');
  return settings;
}

/**
 * A body kept in the list cache under the business's change number, which every write to its
 * suggestions and to the business itself (its roadmap settings, 0044_roadmap.sql) moves: exact while
 * the number holds (docs/caching.md). `key` names everything else the body depends on.
 */
export async function cachedBody(
  cache: ListCache,
  business: { businessId: string; changeNumber: number },
  key: string,
  build: () => Promise<Buffer>,
): Promise<Buffer> {
  const fullKey = `${business.businessId} ${key}`;
  const kept = cache.get(fullKey, business.changeNumber);
  if (kept) return kept;
  const body = await build();
  cache.set(fullKey, business.changeNumber, body);
  return body;
}
