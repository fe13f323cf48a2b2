import type { BusinessRow } from './business.repository.js';
import type { Business } from './business.responses.js';

export const toBusinessResponse = (business: BusinessRow): Business => ({
  id: business.id,
  name: business.name,
  plan: business.plan,
  approval_required: business.approval_required,
  created_at: business.created_at.toISOString(),
  updated_at: business.updated_at.toISOString(),
});
