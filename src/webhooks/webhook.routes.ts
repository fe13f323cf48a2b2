import { offsetEnvelope, idParam } from '../http/params.js';
import { accepted, ok } from '../http/reply.js';
import { resourceFeature } from '../http/resource-routes.js';
import { defineRoute } from '../http/route.js';
import { toWebhookDeliveryResponse, toWebhookEndpointResponse } from './webhook.presenter.js';
import {
  rotatedSecretSchema,
  testEventSchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookEndpointPageSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from './webhook.responses.js';
import { createWebhookBody, listDeliveriesQuery, listWebhooksQuery, updateWebhookBody } from './webhook.schemas.js';
import {
  changeEndpoint,
  createEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  removeEndpoint,
  rotateSecret,
  SECRET_OVERLAP_MS,
  sendTestEvent,
} from './webhook.service.js';

const base = '/businesses/:business_id/webhooks';
const common = { tag: 'Webhooks', guard: 'business', action: 'manage_webhooks' } as const;

/** The push side of events: endpoints, their signing secrets and their deliveries. */
export const webhookFeature = resourceFeature({
  path: '/webhooks',
  tag: {
    name: 'Webhooks',
    description:
      'Endpoints that receive events, signed to the Standard Webhooks specification (owners and admins only)',
  },
  resource: 'Webhook',
  noun: 'endpoint',
  plural: 'endpoints',
  // Owners and admins only: an API key could otherwise send every future event wherever it likes.
  access: { read: 'manage_webhooks', write: 'manage_webhooks' },
  schema: webhookEndpointSchema,
  present: toWebhookEndpointResponse,
  list: {
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints',
    query: listWebhooksQuery,
    json: webhookEndpointPageSchema,
    run: ({ principal, query, db }) => listEndpoints(db, principal.businessId, query),
  },
  create: {
    operationId: 'createWebhook',
    summary: 'Create a webhook endpoint',
    description:
      'The signing secret is in this response only (a lost one is replaced by rotating it). Events are ' +
      'POSTed with the headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (Standard Webhooks v1).',
    body: createWebhookBody,
    notReplayed: ['secret'],
    errors: [409],
    location: false,
    answer: 'The endpoint and its secret',
    run: async ({ principal, body, services, db }) => {
      const { endpoint, secret } = await createEndpoint(db, principal.businessId, body, {
        allowPrivateNetworks: services.webhookAllowPrivateNetworks,
        maxEndpoints: services.webhookMaxEndpoints,
      });
      return { ...endpoint, secret };
    },
    reveal: { json: webhookEndpointWithSecretSchema, fields: ({ secret }) => ({ secret }) },
  },
  get: {
    operationId: 'getWebhook',
    summary: 'Read a webhook endpoint',
    run: ({ principal, id, db }) => getEndpoint(db, principal.businessId, id),
  },
  update: {
    operationId: 'updateWebhook',
    summary: 'Change or turn on and off a webhook endpoint',
    description: 'Give at least one of `url`, `events`, `description`, `active`.',
    body: updateWebhookBody,
    run: ({ principal, body, services, id, db }) =>
      changeEndpoint(db, principal.businessId, id, body, services.webhookAllowPrivateNetworks),
  },
  remove: {
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries are dropped.',
    run: ({ principal, id, db }) => removeEndpoint(db, principal.businessId, id),
  },
  more: [
    defineRoute({
      ...common,
      method: 'post',
      path: `${base}/:id/rotate-secret`,
      resource: 'Webhook',
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret of a webhook endpoint',
      description:
        'For 24 hours both secrets sign each delivery (two space-separated signatures), so the receiver can ' +
        'switch to the new one without refusing an event. If this answer is lost, rotate again.',
      notReplayed: ['secret'],
      responses: [{ status: 200, description: 'The new secret, shown once', json: rotatedSecretSchema }],
      handler: async ({ principal, id, db }) => {
        const secret = await rotateSecret(db, principal.businessId, id);
        const expires = new Date(Date.now() + SECRET_OVERLAP_MS).toISOString();
        return ok({ secret, previous_secret_expires_at: expires });
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: `${base}/:id/test`,
      resource: 'Webhook',
      operationId: 'testWebhook',
      summary: 'Send a test event to a webhook endpoint',
      description: 'Queues a `webhook.test` event for this endpoint alone; its delivery is listed with the others.',
      responses: [{ status: 202, description: 'Queued', json: testEventSchema }],
      handler: async ({ principal, id, db }) =>
        accepted({ event_id: await sendTestEvent(db, principal.businessId, id) }),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: `${base}/:id/deliveries`,
      resource: 'Webhook',
      operationId: 'listWebhookDeliveries',
      summary: 'List the deliveries of a webhook endpoint',
      description: 'Newest first: the event, the attempts so far, the last outcome and the next attempt.',
      query: listDeliveriesQuery,
      responses: [{ status: 200, description: 'A slice of the deliveries', json: webhookDeliveryPageSchema }],
      handler: async ({ principal, query: { limit, offset }, id, db }) => {
        const result = await listDeliveries(db, principal.businessId, id, { limit, offset });
        return ok(offsetEnvelope(result.rows.map(toWebhookDeliveryResponse), result.total, limit, offset));
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: `${base}/:webhook_id/deliveries/:delivery_id/redeliver`,
      resource: 'Delivery',
      params: { webhook_id: 'The webhook endpoint', delivery_id: 'The delivery' },
      operationId: 'redeliverWebhook',
      summary: 'Send a delivery again',
      description: 'Queued now with the same `webhook-id` and a fresh retry schedule.',
      responses: [{ status: 202, description: 'Queued again', json: webhookDeliverySchema }],
      handler: async ({ params, principal, id, db }) => {
        const endpointId = idParam(params.webhook_id, 'Webhook');
        return accepted(toWebhookDeliveryResponse(await redeliver(db, principal.businessId, endpointId, id)));
      },
    }),
  ],
});
