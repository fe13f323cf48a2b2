/**
 * `compute` remembered by its string argument, for answers asked again with the same few inputs on
 * every request (a browser's Accept-Language, a business's colour). At most `limit` are kept; past
 * them the memory starts again, so inputs a client chooses cannot grow it without bound.
 */
export function boundedMemo<T>(limit: number, compute: (input: string) => T): (input: string) => T {
  const kept = new Map<string, T>();
  return (input) => {
    if (kept.has(input)) return kept.get(input) as T;
    const answer = compute(input);
    if (kept.size >= limit) kept.clear();
    kept.set(input, answer);
    return answer;
  };
}
