import type pg from 'pg';
import { recordActivity } from '../outbox/outbox.service.js';
import { findBusiness } from '../businesses/business.repository.js';
import { notFound } from '../errors/http-error.js';
import { seededRandom, type Random } from './seed.random.js';
import { insertCommentBatch, insertIssueBatch, insertSuggestionBatch, findSeedTargets } from './seed.repository.js';
import { commentBatch, issueBatch, suggestionBatch, type CommentParent, type SeedContext } from './seed.rows.js';

export interface SeedRequest {
  suggestions: number;
  issues: number;
  /** Spread over the suggestions and issues seeded in the same run. */
  comments: number;
}

export interface SeedOptions {
  /** Called after every committed batch. */
  onProgress?: (done: number, total: number) => void;
  random?: Random;
  /** Epoch ms the timestamps end at; creations spread over the year before it. */
  now?: number;
  batchSize?: number;
  /** Batches in flight at once, each on its own connection (the embedded database runs them in turn). */
  concurrency?: number;
}

export interface SeedSummary {
  business_id: string;
  suggestions: number;
  issues: number;
  comments: number;
  rows: number;
  seconds: number;
  rows_per_second: number;
}

const YEAR_MS = 365 * 86_400_000;
const DEFAULT_BATCH_SIZE = 5_000;
const DEFAULT_CONCURRENCY = 2;

/** Runs at most `limit` tasks at once; the first failure is rethrown once every started task has settled. */
function taskQueue(limit: number) {
  const running = new Set<Promise<void>>();
  let failure: Error | undefined;
  const settle = async () => {
    await Promise.allSettled(running);
    if (failure) throw failure;
  };
  return {
    async submit(task: () => Promise<void>) {
      while (running.size >= limit) await Promise.race(running).catch(() => undefined);
      if (failure) await settle();
      const run: Promise<void> = task()
        .catch((err: unknown) => {
          failure ??= err instanceof Error ? err : new Error(String(err));
        })
        .finally(() => running.delete(run));
      running.add(run);
    },
    settle,
  };
}

/** `count` distinct-or-repeated positions in [0, range), ascending: which seeded rows get a comment. */
function commentTargets(random: Random, count: number, range: number): Float64Array {
  const positions = new Float64Array(count);
  for (let i = 0; i < count; i++) positions[i] = Math.floor(random() * range);
  return positions.sort();
}

/**
 * Inserts generated suggestions, issues and comments for a business (see seed.rows.ts for what they
 * look like), in batches of one statement each, committed one by one: an interrupted run leaves whole,
 * counted batches. The counting triggers keep every total exact as it goes. Seeded rows get no
 * activity rows of their own (they are an import, source 'import'); one `business.seeded` entry
 * records the run.
 */
export async function seedBusiness(
  pool: pg.Pool,
  businessId: string,
  request: SeedRequest,
  options: SeedOptions = {},
): Promise<SeedSummary> {
  const started = performance.now();
  const business = await findBusiness(pool, businessId);
  if (!business) throw notFound('Business');
  const targets = await findSeedTargets(pool, businessId);
  const ctx: SeedContext = {
    random: options.random ?? seededRandom(Math.floor(Math.random() * 2 ** 32)),
    now: options.now ?? Date.now(),
    spanMs: YEAR_MS,
    memberIds: targets.member_ids,
    locationIds: targets.location_ids,
    approvalRequired: business.approval_required,
  };
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const total = request.suggestions + request.issues + request.comments;
  let done = 0;
  const queue = taskQueue(options.concurrency ?? DEFAULT_CONCURRENCY);
  const insert = (rows: number, write: () => Promise<void>) =>
    queue.submit(async () => {
      await write();
      done += rows;
      options.onProgress?.(done, total);
    });

  const commentable = request.suggestions + request.issues;
  const targetsLeft = commentTargets(ctx.random, commentable > 0 ? request.comments : 0, commentable);
  const parents: CommentParent[] = [];
  let next = 0;
  const collectParents = (entityType: CommentParent['entityType'], offset: number, ids: string[], times: number[]) => {
    while (next < targetsLeft.length && targetsLeft[next]! < offset + ids.length) {
      const at = targetsLeft[next++]! - offset;
      parents.push({ entityType, entityId: ids[at]!, createdAt: times[at]! });
    }
  };

  for (let from = 0; from < request.suggestions; from += batchSize) {
    const batch = suggestionBatch(ctx, from, Math.min(batchSize, request.suggestions - from), request.suggestions);
    collectParents('suggestion', from, batch.id, batch.createdAt);
    await insert(batch.id.length, () => insertSuggestionBatch(pool, businessId, batch));
  }
  for (let from = 0; from < request.issues; from += batchSize) {
    const batch = issueBatch(ctx, from, Math.min(batchSize, request.issues - from), request.issues);
    collectParents('issue', request.suggestions + from, batch.id, batch.createdAt);
    await insert(batch.id.length, () => insertIssueBatch(pool, businessId, batch));
  }
  for (let from = 0; from < parents.length; from += batchSize) {
    const batch = commentBatch(ctx, parents.slice(from, from + batchSize));
    await insert(batch.id.length, () => insertCommentBatch(pool, businessId, batch));
  }
  await queue.settle();

  const seeded = { suggestions: request.suggestions, issues: request.issues, comments: parents.length };
  await recordActivity(
    pool,
    { businessId, userId: null },
    {
      type: 'business.seeded',
      entityType: 'business',
      entityId: businessId,
      data: seeded,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const rows = seeded.suggestions + seeded.issues + seeded.comments;
  return {
    business_id: businessId,
    ...seeded,
    rows,
    seconds: Math.round(seconds * 1000) / 1000,
    rows_per_second: Math.round(rows / seconds),
  };
}
