import type { z } from 'zod';

/**
 * A timestamptz column as the API writes every instant, ISO 8601 in UTC with milliseconds, exactly
 * what Date.prototype.toISOString() gives (`2026-11-21T09:30:00.123Z`); null stays null. For reads
 * that go straight to a client's bytes (exports), sparing a Date per value in between.
 */
export const isoText = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A jsonb object of `fields` (name to the SQL reading it as a client sees it), over the row in scope:
 * a presenter in SQL, for the statement that both changes a row and records it in an event. jsonb, like
 * every event's data, keeps no key order.
 */
export const jsonObjectSql = (fields: Record<string, string>): string =>
  `jsonb_build_object(${Object.entries(fields)
    .map(([name, sql]) => `'${name}', ${sql}`)
    .join(', ')})`;

/** A column a client sees. */
interface ShownColumn<View extends string> {
  /** The view that adds it: a presenter of several views shows the columns each one adds. */
  shownIn: View;
  /** What a client sees of it: its field in the response schemas, description included. */
  schema: z.ZodType;
  /** A timestamptz: a Date in the row, ISO 8601 text for a client (toISOString, or isoText in SQL). */
  instant?: true;
}

/** A column the service reads and no client ever sees. */
interface HiddenColumn {
  shownIn: null;
}

/**
 * A resource's columns, in the order a client sees them: the one place that says what a row holds,
 * which of it each view shows and as what. A row's select list, its presenters, its response schemas
 * and its records in SQL (exports, event objects) all come from it, so a column added to the table
 * reaches no client until it is added here, and then reaches every one of them alike. Keyed by exactly
 * the row's fields; a Date field, and only one, is an instant.
 */
export type ColumnMap<Row, View extends string> = {
  readonly [K in keyof Row]-?:
    | HiddenColumn
    | (Row[K] extends Date | null ? ShownColumn<View> & { instant: true } : ShownColumn<View> & { instant?: never });
};

type AnyColumns = Record<string, HiddenColumn | ShownColumn<string>>;

/** The names of the columns that `views` show. */
type ShownIn<M extends AnyColumns, V extends string> = {
  [K in keyof M]: M[K] extends { shownIn: V } ? K : never;
}[keyof M];

type SchemaOf<C> = C extends { schema: infer S extends z.ZodType } ? S : never;
type Presented<C> = z.output<SchemaOf<C>>;
/** The row's value a presented field comes from: for an instant, a Date where the field is text. */
type RowValue<C> = C extends { instant: true } ? DateFor<Presented<C>> : Presented<C>;
type DateFor<T> = T extends null ? null : Date;

const shown = (columns: AnyColumns, views: readonly string[]) =>
  Object.entries(columns).flatMap(([name, column]) =>
    column.shownIn !== null && views.includes(column.shownIn) ? [{ name, ...column }] : [],
  );

/** Every column, as a statement's select list or RETURNING clause; of `table` when one is named. */
export const columnList = (columns: AnyColumns, table?: string): string =>
  Object.keys(columns)
    .map((name) => (table ? `${table}.${name}` : name))
    .join(', ');

/** The response schema's fields that `views` show, in the map's order: a `z.object` or `.extend` of them. */
export function fieldsOf<M extends AnyColumns, V extends string>(
  columns: M,
  views: readonly V[],
): { [K in ShownIn<M, V>]: SchemaOf<M[K]> } {
  return Object.fromEntries(shown(columns, views).map((column) => [column.name, column.schema])) as never;
}

/**
 * The presenter of `views`: exactly the columns they show, in the map's order, each as its schema
 * says (an instant as ISO 8601 text, null staying null).
 */
export function presenterOf<M extends AnyColumns, V extends string>(
  columns: M,
  views: readonly V[],
): (row: { [K in ShownIn<M, V>]: RowValue<M[K]> }) => { [K in ShownIn<M, V>]: Presented<M[K]> } {
  const fields = shown(columns, views).map(({ name, instant }) => [name, instant === true] as const);
  return (row) => {
    const values = row as Record<string, unknown>;
    const presented: Record<string, unknown> = {};
    for (const [name, instant] of fields) {
      const value = values[name];
      presented[name] = instant && value !== null ? (value as Date).toISOString() : value;
    }
    return presented as never;
  };
}

/**
 * What `views` show, each field as the SQL that reads it as a client sees it (an instant through
 * isoText), in the map's order: records read as value arrays (exports) and objects built in SQL
 * (jsonObjectSql) come out as the presenter's.
 */
export const fieldSqlOf = (columns: AnyColumns, views: readonly string[]): Record<string, string> =>
  Object.fromEntries(shown(columns, views).map(({ name, instant }) => [name, instant ? isoText(name) : name]));
