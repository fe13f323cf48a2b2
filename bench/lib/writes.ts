/**
 * A create as the write floor, the Express stack and the statement floor run it: the service's own
 * statement (insertRecordedSuggestion: the suggestion with its sentiment, its activity row, its event
 * and the event's webhook deliveries, one statement and so its own transaction) and presenter, with
 * no validation beyond what the bench sends; and the key lookup that comes first.
 */
import type pg from 'pg';
import { recordsOf } from '../../src/outbox/outbox.service.js';
import { findKeyCredential } from '../../src/auth/credential.repository.js';
import { keyPrincipalOf } from '../../src/auth/credentials.js';
import type { ApiKeyPrincipal } from '../../src/auth/principal.js';
import type { StoredResponse } from '../../src/idempotency/idempotency.store.js';
import type { Priority } from '../../src/shared/schemas.js';
import { newId } from '../../src/shared/ids.js';
import { detectLanguage } from '../../src/suggestions/language.js';
import { analyzeSentiment } from '../../src/suggestions/sentiment.js';
import { toSuggestionResponse } from '../../src/suggestions/suggestion.presenter.js';
import { insertRecordedSuggestion } from '../../src/suggestions/suggestion.repository.js';

export interface CreateInput {
  content: string;
  priority?: Priority;
}

/** The principal of a key, by its digest, as the service resolves it: undefined when unknown or revoked. */
export async function findKeyPrincipal(pool: pg.Pool, digest: Buffer): Promise<ApiKeyPrincipal | undefined> {
  const credential = await findKeyCredential(pool, digest);
  return credential && !credential.revoked_at ? keyPrincipalOf(credential) : undefined;
}

export async function createSuggestion(
  pool: pg.Pool,
  principal: ApiKeyPrincipal,
  input: CreateInput,
): Promise<StoredResponse> {
  const language = detectLanguage(input.content);
  const { sentiment, score, lexicon } = analyzeSentiment(input.content, language);
  const records = recordsOf(principal, { type: 'suggestion.created', entityType: 'suggestion' }, 'suggestion.created');
  const priority = input.priority ?? 'medium';
  const created = await insertRecordedSuggestion(
    pool,
    principal.businessId,
    {
      id: newId(),
      content: input.content,
      status: 'pending',
      priority,
      sentiment,
      sentimentScore: score,
      language,
      sentimentLexicon: lexicon,
      customerName: null,
      customerEmail: null,
      isAnonymous: true,
      visibility: 'internal',
      reviewState: 'not_required',
      locationId: null,
      source: 'api',
    },
    records,
  );
  const row = created!.row;
  return {
    status: 201,
    contentType: 'application/json; charset=utf-8',
    location: `/api/v1/suggestions/${row.id}`,
    body: JSON.stringify(toSuggestionResponse(row)),
  };
}
