import { expect } from 'vitest';
import { changeNumberSql } from '../../src/cache/change.repository.js';
import type { Queryable } from '../../src/db/database.js';

/**
 * Whether a table's changes move the business's change number, read from the database's catalog: for
 * test/db/change-triggers.test.ts (every table a cached list reads) and for the recipe's walk of a new
 * resource (test/recipe/add-a-resource.test.ts).
 */

/** Names after FROM or JOIN that are not calls: tables, CTEs and columns alike, until the catalog sorts them. */
export const namesRead = (sql: string) =>
  [...sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]\w*)\b(?!\s*\()/gi)].map((m) => m[1]!);

export interface Catalog {
  tables: Set<string>;
  triggers: { table: string; event: string; statement: string }[];
  /** The tables each function writes, itself or through the functions it calls. */
  writes: Map<string, Set<string>>;
}

export async function readCatalog(db: Queryable): Promise<Catalog> {
  const { rows: tableRows } = await db.query<{ name: string }>(/* sql */ `
    SELECT table_name AS name
    FROM information_schema.tables
    WHERE table_schema = current_schema()
      AND table_type = 'BASE TABLE'`);
  const { rows: functions } = await db.query<{ name: string; source: string }>(/* sql */ `
    SELECT proname AS name, prosrc AS source
    FROM pg_proc
    WHERE pronamespace = current_schema()::regnamespace`);
  const { rows: triggers } = await db.query<Catalog['triggers'][number]>(/* sql */ `
    SELECT event_object_table AS table, event_manipulation AS event, action_statement AS statement
    FROM information_schema.triggers
    WHERE trigger_schema = current_schema()`);
  const tables = new Set(tableRows.map((row) => row.name));
  const names = new Set(functions.map((f) => f.name));
  const writes = new Map<string, Set<string>>();
  const calls = new Map<string, string[]>();
  for (const f of functions) {
    const direct = [...f.source.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]\w*)/gi)];
    writes.set(f.name, new Set(direct.map((m) => m[1]!.toLowerCase()).filter((name) => tables.has(name))));
    const called = [...f.source.matchAll(/\b([a-z_]\w*)\s*\(/gi)].map((m) => m[1]!.toLowerCase());
    calls.set(
      f.name,
      called.filter((name) => names.has(name) && name !== f.name),
    );
  }
  // A trigger's function may write through a helper (count_changes calls apply_changes): as many
  // rounds as there are functions reach the end of any chain of calls.
  for (let round = 0; round < functions.length; round++) {
    for (const f of functions) {
      for (const callee of calls.get(f.name)!) for (const table of writes.get(callee)!) writes.get(f.name)!.add(table);
    }
  }
  return { tables, triggers, writes };
}

/** What is wrong with each table: the changes to it that do not move the change number. */
export function changeTriggerGaps({ tables, triggers, writes }: Catalog, read: string[]): string[] {
  const writtenBy = (statement: string) =>
    writes.get(/EXECUTE (?:FUNCTION|PROCEDURE) (?:\w+\.)?(\w+)\(/.exec(statement)?.[1] ?? '') ?? new Set<string>();
  // The change number is read from these tables: a change trigger is one whose function writes them.
  const changeTables = namesRead(changeNumberSql('$1')).filter((name) => tables.has(name));
  expect(changeTables.length).toBeGreaterThan(0);
  const unchanged = (table: string) =>
    ['INSERT', 'UPDATE', 'DELETE'].filter(
      (event) =>
        !triggers.some(
          (trigger) =>
            trigger.table === table &&
            trigger.event === event &&
            changeTables.some((changes) => writtenBy(trigger.statement).has(changes)),
        ),
    );
  /** The tables whose triggers write `table` (the counters): it changes when they do. */
  const keptBy = (table: string) => [
    ...new Set(triggers.filter((t) => t.table !== table && writtenBy(t.statement).has(table)).map((t) => t.table)),
  ];
  return read.flatMap((table) => {
    const events = unchanged(table);
    if (events.length === 0) return [];
    const sources = keptBy(table);
    if (sources.length > 0 && sources.every((source) => unchanged(source).length === 0)) return [];
    return [`${table}: no change trigger on ${events.join(', ')}`];
  });
}
