import type pg from 'pg';
import { operator, recordActivity } from '../outbox/outbox.service.js';
import type { Principal } from '../auth/principal.js';
import { withTransaction, type Queryable } from '../db/database.js';
import { withUniqueConflict } from '../db/errors.js';
import { invalidField, conflict, notFound, unprocessable } from '../errors/http-error.js';
import type { FieldChanges } from '../shared/changes.js';
import { TAGS_PER_ITEM_MAX } from './tag.columns.js';
import { newId } from '../shared/ids.js';
import {
  countTags,
  deleteTag,
  findTagsByName,
  insertTag,
  removeTagFromItems,
  renameTagOnItems,
  updateTag,
  TAGS,
  type TagRow,
} from './tag.repository.js';
import type { CreateTagBody, UpdateTagBody } from './tag.schemas.js';

/** The most tags one business may define: a list a person picks from, never paged. */
export const TAGS_PER_BUSINESS_MAX = 200;

export const listTags = (db: Queryable, businessId: string): Promise<TagRow[]> => TAGS.all(db, businessId);

export const getTag = (db: Queryable, businessId: string, id: string): Promise<TagRow> => TAGS.get(db, businessId, id);

/** Names are unique per business ignoring case: a taken one is a 409, whoever took it first. */
const uniqueName = <T>(name: string, write: () => Promise<T>): Promise<T> =>
  withUniqueConflict(write(), `A tag named "${name}" already exists`, {
    field: 'name',
    code: 'tag_taken',
    message: 'already used by another tag',
    params: { name },
  });

export async function createTag(pool: pg.Pool, by: Principal, input: CreateTagBody): Promise<TagRow> {
  const { businessId } = by;
  return uniqueName(input.name, () =>
    withTransaction(pool, async (tx) => {
      if ((await countTags(tx, businessId)) >= TAGS_PER_BUSINESS_MAX) {
        throw conflict(`A business has at most ${TAGS_PER_BUSINESS_MAX} tags; delete one first`);
      }
      const tag = await insertTag(tx, businessId, { id: newId(), ...input });
      await recordActivity(tx, by, { type: 'tag.created', entityType: 'tag', entityId: tag.id, data: input });
      return tag;
    }),
  );
}

/**
 * Renames a tag, recolours it or makes it public or not. A rename rewrites the name on every item that
 * carries it, in the same transaction: reads, lists and exports never show the old spelling after the
 * commit, and the items' triggers move the business's change number, so no cached list does either.
 * The items are not otherwise changed: no updated_at, no `suggestion.updated` (docs/tags.md).
 */
export async function changeTag(pool: pg.Pool, by: Principal, id: string, input: UpdateTagBody): Promise<TagRow> {
  const { businessId } = by;
  const name = input.name ?? '';
  return uniqueName(name, () =>
    withTransaction(pool, async (tx) => {
      const before = await TAGS.find(tx, businessId, id, { forUpdate: true });
      if (!before) throw notFound('Tag');
      const after = {
        name: input.name ?? before.name,
        color: input.color ?? before.color,
        public: input.public ?? before.public,
      };
      const changes = Object.fromEntries(
        (['name', 'color', 'public'] as const)
          .filter((field) => after[field] !== before[field])
          .map((field) => [field, { from: before[field], to: after[field] }]),
      );
      if (Object.keys(changes).length === 0) return before;
      const updated = (await updateTag(tx, businessId, id, after))!;
      if (after.name !== before.name) await renameTagOnItems(tx, businessId, before.name, after.name);
      await recordActivity(tx, by, { type: 'tag.updated', entityType: 'tag', entityId: id, data: { changes } });
      return updated;
    }),
  );
}

/** Deletes a tag and takes it off every item that carries it, in one transaction (see changeTag). */
export async function removeTag(pool: pg.Pool, by: Principal | null, businessId: string, id: string): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const tag = await TAGS.find(tx, businessId, id, { forUpdate: true });
    if (!tag) throw notFound('Tag');
    await removeTagFromItems(tx, businessId, tag.name);
    await deleteTag(tx, businessId, id);
    await recordActivity(tx, by ?? operator(businessId), {
      type: 'tag.deleted',
      entityType: 'tag',
      entityId: id,
      data: { name: tag.name },
    });
  });
}

/** Alphabetical ignoring case, by code point: the one order of an item's tags (see sortedSql). */
export function sortTagNames(names: readonly string[]): string[] {
  const key = (name: string) => [name.toLowerCase(), name] as const;
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...names].sort((a, b) => {
    const [ka, na] = key(a);
    const [kb, nb] = key(b);
    return compare(ka, kb) || compare(na, nb);
  });
}

/**
 * The business's own spelling of each name, ignoring case, for a body that writes tags onto an item:
 * a name it has not defined is a 422 naming it. Called inside the item's transaction before the item
 * is locked, it holds the tags (FOR SHARE) until the commit: a rename or delete waits, and always takes
 * the tag first and the items second, as this does, so the two never deadlock.
 */
export async function resolveTagNames(tx: Queryable, businessId: string, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const found = await findTagsByName(tx, businessId, names, { forShare: true });
  const byKey = new Map(found.map((tag) => [tag.name.toLowerCase(), tag.name]));
  const unknown = [...new Set(names.filter((name) => !byKey.has(name.toLowerCase())))];
  if (unknown.length > 0) {
    const list = unknown.map((name) => `"${name}"`).join(', ');
    throw unprocessable(
      `Unknown tag${unknown.length === 1 ? '' : 's'} ${list}: define ${unknown.length === 1 ? 'it' : 'them'} first (POST /businesses/{business_id}/tags)`,
      'UNKNOWN_TAG',
    );
  }
  return sortTagNames([...new Set(names.map((name) => byKey.get(name.toLowerCase())!))]);
}

/**
 * A list filter's names in the business's own spelling, as the items carry them; a name it has not
 * defined stays as given and so matches nothing, as it should.
 */
export async function tagFilterOf(db: Queryable, businessId: string, names: readonly string[]): Promise<string[]> {
  const found = await findTagsByName(db, businessId, names);
  const byKey = new Map(found.map((tag) => [tag.name.toLowerCase(), tag.name]));
  return [...new Set(names.map((name) => byKey.get(name.toLowerCase()) ?? name))];
}

/** A tag's change on an item, for its event and activity: null when the set is the same. */
export function tagChange(from: readonly string[], to: readonly string[]): { from: string[]; to: string[] } | null {
  const same = from.length === to.length && from.every((name, i) => name === to[i]);
  return same ? null : { from: [...from], to: [...to] };
}

/** An item's tags after adding and removing resolved names: at most TAGS_PER_ITEM_MAX, sorted. */
export function nextTags(current: readonly string[], add: readonly string[], remove: readonly string[]): string[] {
  const removed = new Set(remove);
  const next = sortTagNames([...new Set([...current, ...add])].filter((name) => !removed.has(name)));
  if (next.length > TAGS_PER_ITEM_MAX) {
    throw invalidField('tags', 'too_many', `an item carries at most ${TAGS_PER_ITEM_MAX} tags`, {
      max: TAGS_PER_ITEM_MAX,
    });
  }
  return next;
}

type Recorded = { activity: { from: object; to: object }; changes: FieldChanges };

/** An item's recorded change with its tags' change added, when they changed (`{from, to}` name arrays). */
export function withTags(recorded: Recorded, tagged: { from: string[]; to: string[] } | null | undefined): Recorded {
  if (!tagged) return recorded;
  return {
    activity: {
      from: { ...recorded.activity.from, tags: tagged.from },
      to: { ...recorded.activity.to, tags: tagged.to },
    },
    changes: { ...recorded.changes, tags: tagged },
  };
}
