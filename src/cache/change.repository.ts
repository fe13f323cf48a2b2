/**
 * The business's change number (migrations/0004_changes.sql), as an expression over the SQL that
 * names the business: it grows with every committed write to the business's suggestions or issues,
 * so a response made when it had one value is exact for as long as it keeps it.
 */
export const changeNumberSql = (businessIdSql: string): string => /* sql */ `(
    SELECT coalesce(sum(c.n), 0)
    FROM change_counts c
    WHERE c.business_id = ${businessIdSql})`;
