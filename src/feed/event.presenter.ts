import type { EventRow } from './event.repository.js';

/** Every field of an event, as the feed shows it. */
export function toEventResponse(event: EventRow) {
  return {
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    business_id: event.business_id,
    data: event.data,
  };
}
