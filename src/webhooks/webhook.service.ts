import { randomBytes } from 'node:crypto';
import { lockBusinessForLimit } from '../businesses/business.repository.js';
import type pg from 'pg';
import { wakeWorkers } from '../outbox/event.bus.js';
import { TEST_EVENT_TYPE } from '../outbox/event.types.js';
import { withTransaction } from '../db/database.js';
import { invalidField, HttpError, notFound } from '../errors/http-error.js';
import { newId } from '../shared/ids.js';
import { refusedHost } from './webhook.address.js';
import { toWebhookEndpointResponse } from './webhook.presenter.js';
import {
  countDeliveries,
  countEndpoints,
  deleteEndpoint,
  ENDPOINTS,
  findDeliveries,
  insertDelivery,
  insertEndpoint,
  requeueDelivery,
  rotateEndpointSecret,
  updateEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhook.repository.js';
import type { CreateWebhookBody, UpdateWebhookBody } from './webhook.schemas.js';

/** After a rotation the old secret keeps signing this long, so receivers can switch without losing events. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60_000;

/** Standard Webhooks: `whsec_` and the base64 of 32 random bytes. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * https to a public address, unless private networks are allowed (development): the address is
 * checked again at every connection, since a name can resolve elsewhere later.
 */
function checkUrl(url: string, allowPrivateNetworks: boolean): void {
  if (allowPrivateNetworks) return;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw invalidField('url', 'https_required', 'must be https');
  const refused = refusedHost(parsed);
  if (refused) throw invalidField('url', 'private_address', `${refused}, not a public one`, { address: refused });
}

export async function createEndpoint(
  pool: pg.Pool,
  businessId: string,
  input: CreateWebhookBody,
  rules: { allowPrivateNetworks: boolean; maxEndpoints: number },
): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
  checkUrl(input.url, rules.allowPrivateNetworks);
  const secret = newSecret();
  const endpoint = await withTransaction(pool, async (tx) => {
    await lockBusinessForLimit(tx, businessId);
    if ((await countEndpoints(tx, businessId)) >= rules.maxEndpoints) {
      const message =
        `This business has ${rules.maxEndpoints} webhook endpoints, the most it may have: ` +
        'delete one it no longer needs, or have the operator raise WEBHOOK_MAX_ENDPOINTS';
      const errors = [{ field: '', code: 'endpoint_limit', message, params: { max: rules.maxEndpoints } }];
      throw new HttpError(409, message, 'WEBHOOK_LIMIT_REACHED', {}, errors);
    }
    return insertEndpoint(tx, businessId, {
      id: newId(),
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      secret,
    });
  });
  return { endpoint, secret };
}

export const listEndpoints = (
  pool: pg.Pool,
  businessId: string,
  { limit, offset }: { limit: number; offset: number },
) => ENDPOINTS.page(pool, businessId, { sort: 'created_at', order: 'asc', limit, offset });

export const getEndpoint = (pool: pg.Pool, businessId: string, id: string): Promise<WebhookEndpointRow> =>
  ENDPOINTS.get(pool, businessId, id);

export async function changeEndpoint(
  pool: pg.Pool,
  businessId: string,
  id: string,
  changes: UpdateWebhookBody,
  allowPrivateNetworks: boolean,
): Promise<WebhookEndpointRow> {
  if (changes.url !== undefined) checkUrl(changes.url, allowPrivateNetworks);
  const endpoint = await updateEndpoint(pool, businessId, id, changes);
  if (!endpoint) throw notFound('Webhook');
  return endpoint;
}

export async function removeEndpoint(pool: pg.Pool, businessId: string, id: string): Promise<void> {
  if (!(await deleteEndpoint(pool, businessId, id))) throw notFound('Webhook');
}

export async function rotateSecret(pool: pg.Pool, businessId: string, id: string): Promise<string> {
  const secret = newSecret();
  if (!(await rotateEndpointSecret(pool, businessId, id, secret, SECRET_OVERLAP_MS))) throw notFound('Webhook');
  return secret;
}

/** Queues a `webhook.test` event for this endpoint alone (the feed never shows it); answers its id. */
export async function sendTestEvent(pool: pg.Pool, businessId: string, id: string): Promise<string> {
  const eventId = newId();
  await withTransaction(pool, async (tx) => {
    const endpoint = await ENDPOINTS.find(tx, businessId, id);
    if (!endpoint) throw notFound('Webhook');
    const payload = JSON.stringify({
      type: TEST_EVENT_TYPE,
      timestamp: new Date().toISOString(),
      data: { object: toWebhookEndpointResponse(endpoint) },
    });
    await insertDelivery(tx, businessId, { id: newId(), endpointId: id, eventId, eventType: TEST_EVENT_TYPE, payload });
  });
  wakeWorkers();
  return eventId;
}

export async function listDeliveries(
  pool: pg.Pool,
  businessId: string,
  endpointId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  await getEndpoint(pool, businessId, endpointId);
  const [rows, total] = await Promise.all([
    findDeliveries(pool, businessId, endpointId, page),
    countDeliveries(pool, businessId, endpointId),
  ]);
  return { rows, total };
}

export async function redeliver(
  pool: pg.Pool,
  businessId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow> {
  const delivery = await requeueDelivery(pool, businessId, endpointId, deliveryId);
  if (!delivery) throw notFound('Delivery');
  wakeWorkers();
  return delivery;
}
