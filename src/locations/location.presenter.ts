import type { LocationRow } from './location.repository.js';
import type { Location } from './location.responses.js';

export const toLocationResponse = (location: LocationRow): Location => ({
  id: location.id,
  name: location.name,
  created_at: location.created_at.toISOString(),
  updated_at: location.updated_at.toISOString(),
});
