/**
 * How a list filter field can be counted: `key` is a dimension of the counters, `after` / `from` a
 * lower bound on created_at (strictly after / at or after), `rows` anything only a count of the rows
 * can answer (a search, an upper bound), `shown` a flag that, when true, also lists rows the counters
 * leave out (merged suggestions): false or absent, the counters already agree with the rows; `tag` a
 * list of tag names that the tag counters answer when it names one tag and nothing else is filtered
 * (migrations/0026_tags.sql). Every filter field must be classified, so a new one can never be
 * silently ignored by the counters.
 */
export type FilterKind = 'key' | 'after' | 'from' | 'rows' | 'shown' | 'tag';

export type CountPlan<Filter> =
  /** Equality filters only (or none): the counters answer. */
  | { by: 'counters'; keys: Partial<Filter> }
  /** A single created_at lower bound and nothing else: daily counters plus one day of the index. */
  | { by: 'created'; bound: Date; inclusive: boolean }
  /** One tag and nothing else: its counter. */
  | { by: 'tag'; tag: string }
  /** Anything else: count(*) over the rows. */
  | { by: 'rows' };

export function planCount<Filter extends object>(
  filter: Filter,
  kinds: Record<keyof Filter, FilterKind>,
): CountPlan<Filter> {
  const keys: Partial<Filter> = {};
  const bounds: { bound: Date; inclusive: boolean }[] = [];
  const tags: string[][] = [];
  for (const field of Object.keys(kinds) as (keyof Filter)[]) {
    const value = filter[field];
    if (value === undefined) continue;
    switch (kinds[field]) {
      case 'key':
        keys[field] = value;
        break;
      case 'after':
      case 'from':
        bounds.push({ bound: value as Date, inclusive: kinds[field] === 'from' });
        break;
      case 'tag':
        tags.push(value as string[]);
        break;
      case 'rows':
        return { by: 'rows' };
      case 'shown':
        if (value === true) return { by: 'rows' };
        break;
    }
  }
  if (tags.length > 0) {
    const alone = tags.length === 1 && tags[0]!.length === 1 && bounds.length === 0 && Object.keys(keys).length === 0;
    return alone ? { by: 'tag', tag: tags[0]![0]! } : { by: 'rows' };
  }
  if (bounds.length === 0) return { by: 'counters', keys };
  if (bounds.length === 1 && Object.keys(keys).length === 0) return { by: 'created', ...bounds[0]! };
  return { by: 'rows' };
}
