export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/**
 * `{field: {from, to}}` for each field that `next` gives and that differs from `current`: what an
 * activity row (and an event) says changed. Fields `next` leaves undefined are unchanged.
 */
export function fieldChanges<T extends Record<string, unknown>>(current: T, next: Partial<T>): FieldChanges {
  const changes: FieldChanges = {};
  for (const [field, to] of Object.entries(next)) {
    if (to !== undefined && to !== current[field]) changes[field] = { from: current[field], to };
  }
  return changes;
}
