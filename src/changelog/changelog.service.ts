import type pg from 'pg';
import type { Principal } from '../auth/principal.js';
import { inTransaction, withTransaction, type Queryable } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import { conflict, HttpError, notFound } from '../errors/http-error.js';
import {
  deleteNoticesExcept,
  findNoticedSuggestions,
  insertChangelogNotice,
} from '../follows/changelog-notice.repository.js';
import { recordActivity } from '../outbox/outbox.service.js';
import { fieldChanges } from '../shared/changes.js';
import { newId } from '../shared/ids.js';
import { renderMarkdown } from '../shared/markdown.js';
import { findSuggestion } from '../suggestions/suggestion.repository.js';
import { changeSuggestion } from '../suggestions/suggestion.service.js';
import {
  CHANGELOG,
  deleteEntry,
  findForeignSuggestionIds,
  findPublishedEntry,
  findPublishedPage,
  insertEntry,
  publishEntry,
  updateEntry,
  type ChangelogEntryRow,
} from './changelog.repository.js';
import { toChangelogEntryResponse } from './changelog.presenter.js';
import type { CreateChangelogBody, PublishChangelogBody, UpdateChangelogBody } from './changelog.schemas.js';

export const listEntries = (db: Queryable, businessId: string, page: PageRequest<'created_at'>) =>
  CHANGELOG.page(db, businessId, page);

export const getEntry = (db: Queryable, businessId: string, id: string): Promise<ChangelogEntryRow> =>
  CHANGELOG.get(db, businessId, id);

export const listPublishedEntries = findPublishedPage;

/** A published entry, or the 404 a draft is too: nobody but the team knows a draft is there. */
export async function getPublishedEntry(db: Queryable, businessId: string, id: string): Promise<ChangelogEntryRow> {
  const entry = await findPublishedEntry(db, businessId, id);
  if (!entry) throw notFound('Changelog entry');
  return entry;
}

/** Ids of suggestions that are not the business's own are a 422 naming them, on the field. */
async function assertOwnSuggestions(db: Queryable, businessId: string, ids: string[]): Promise<void> {
  const foreign = await findForeignSuggestionIds(db, businessId, ids);
  if (foreign.length === 0) return;
  const message = `not suggestions of this business: ${foreign.join(', ')}`;
  throw new HttpError(422, `Unknown suggestion ids: ${foreign.join(', ')}`, 'UNKNOWN_SUGGESTION', {}, [
    { field: 'suggestion_ids', code: 'unknown_suggestion', message, params: { ids: foreign.join(', ') } },
  ]);
}

/** Creates a draft, or (`publish`) an entry published at once, as publishChangelogEntry publishes. */
export async function createChangelogEntry(
  pool: pg.Pool,
  by: Principal,
  input: CreateChangelogBody,
): Promise<ChangelogEntryRow> {
  const { businessId } = by;
  return inTransaction(pool, async () => {
    await assertOwnSuggestions(pool, businessId, input.suggestion_ids);
    const entry = await insertEntry(pool, businessId, {
      id: newId(),
      title: input.title,
      body: input.body,
      bodyHtml: renderMarkdown(input.body),
      suggestionIds: input.suggestion_ids,
    });
    await recordActivity(pool, by, {
      type: 'changelog.created',
      entityType: 'changelog_entry',
      entityId: entry.id,
      data: { title: entry.title },
    });
    if (!input.publish) return entry;
    const { complete_suggestions, notify_followers } = input;
    return publishDraft(pool, by, entry.id, { complete_suggestions, notify_followers });
  });
}

/**
 * Changes an entry's title, body or suggestions. A published entry's change is a `changelog.updated`
 * event with what changed; a draft's is only the team's activity. Its followers are not told again.
 */
export async function changeChangelogEntry(
  pool: pg.Pool,
  by: Principal,
  id: string,
  input: UpdateChangelogBody,
): Promise<ChangelogEntryRow> {
  const { businessId } = by;
  return withTransaction(pool, async (tx) => {
    const before = await CHANGELOG.find(tx, businessId, id, { forUpdate: true });
    if (!before) throw notFound('Changelog entry');
    if (input.suggestion_ids) await assertOwnSuggestions(tx, businessId, input.suggestion_ids);
    const after = {
      title: input.title ?? before.title,
      body: input.body ?? before.body,
      suggestion_ids: input.suggestion_ids ?? before.suggestion_ids,
    };
    const changes = fieldChanges(
      { title: before.title, body: before.body, suggestion_ids: before.suggestion_ids.join(',') },
      { title: after.title, body: after.body, suggestion_ids: after.suggestion_ids.join(',') },
    );
    if (Object.keys(changes).length === 0) return before;
    if (changes.suggestion_ids) changes.suggestion_ids = { from: before.suggestion_ids, to: after.suggestion_ids };
    const updated = await updateEntry(tx, businessId, id, {
      title: after.title,
      body: after.body,
      bodyHtml: renderMarkdown(after.body),
      suggestionIds: after.suggestion_ids,
    });
    await recordActivity(tx, by, {
      type: 'changelog.updated',
      entityType: 'changelog_entry',
      entityId: id,
      data: { changes },
      ...(updated.published_at ? { publish: { object: toChangelogEntryResponse(updated), changes } } : {}),
    });
    return updated;
  });
}

/** Deletes an entry; a published one's deletion is a `changelog.deleted` event with the entry as it was. */
export async function removeChangelogEntry(pool: pg.Pool, by: Principal, id: string): Promise<void> {
  const { businessId } = by;
  await withTransaction(pool, async (tx) => {
    const entry = await CHANGELOG.find(tx, businessId, id, { forUpdate: true });
    if (!entry) throw notFound('Changelog entry');
    await deleteEntry(tx, businessId, id);
    await recordActivity(tx, by, {
      type: 'changelog.deleted',
      entityType: 'changelog_entry',
      entityId: id,
      data: { title: entry.title },
      ...(entry.published_at ? { publish: { object: toChangelogEntryResponse(entry) } } : {}),
    });
  });
}

/**
 * Publishes a draft: a `changelog.published` event; with `complete_suggestions`, each named
 * suggestion not yet completed moves to `completed` through changeSuggestion, as any status change
 * (its own event, its followers' notice); with `notify_followers`, a notice the follow notifier sends
 * (one message per follower address, carrying those status notices). Without it nothing reaches the
 * followers: the notices the completion left are dropped with it, those waiting before are kept.
 */
export async function publishChangelogEntry(
  pool: pg.Pool,
  by: Principal,
  id: string,
  options: PublishChangelogBody,
): Promise<ChangelogEntryRow> {
  return inTransaction(pool, () => publishDraft(pool, by, id, options));
}

/** publishChangelogEntry's work, in the caller's transaction (every query on `pool` joins it). */
async function publishDraft(
  pool: pg.Pool,
  by: Principal,
  id: string,
  options: PublishChangelogBody,
): Promise<ChangelogEntryRow> {
  const { businessId } = by;
  const draft = await CHANGELOG.find(pool, businessId, id, { forUpdate: true });
  if (!draft) throw notFound('Changelog entry');
  if (draft.published_at) throw conflict('This changelog entry is already published');
  const ids = draft.suggestion_ids;
  const noticedBefore = options.notify_followers ? [] : await findNoticedSuggestions(pool, businessId, ids);
  const published = (await publishEntry(pool, businessId, id))!;
  await recordActivity(pool, by, {
    type: 'changelog.published',
    entityType: 'changelog_entry',
    entityId: id,
    data: { title: published.title, suggestion_ids: ids, ...options },
    publish: { object: toChangelogEntryResponse(published) },
  });
  if (options.complete_suggestions) {
    for (const suggestionId of ids) {
      const suggestion = await findSuggestion(pool, businessId, suggestionId);
      if (!suggestion || suggestion.status === 'completed' || suggestion.merged_into !== null) continue;
      await changeSuggestion(pool, by, suggestionId, { status: 'completed' });
    }
  }
  if (ids.length > 0) {
    if (options.notify_followers) await insertChangelogNotice(pool, businessId, id);
    else await deleteNoticesExcept(pool, businessId, ids, noticedBefore);
  }
  return published;
}
