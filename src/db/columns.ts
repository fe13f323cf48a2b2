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
