import { Router, type Request, type Response } from 'express';
import { EVENT_TYPES } from '../outbox/event.types.js';
import { authorize } from '../auth/authorize.js';
import { HttpError } from '../errors/http-error.js';
import { createWebhookBody } from '../webhooks/webhook.schemas.js';
import {
  changeEndpoint,
  createEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  rotateSecret,
  sendTestEvent,
} from '../webhooks/webhook.service.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields, formList, parseForm } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

type Endpoint = Awaited<ReturnType<typeof getEndpoint>>;

const ENDPOINTS_SHOWN = 100;
const DELIVERIES_SHOWN = 20;

const SAVED: Record<string, string> = {
  test: 'A test event is on its way: it appears below once sent.',
  disabled: 'The endpoint is disabled: it receives nothing until enabled again.',
  enabled: 'The endpoint is enabled.',
  deleted: 'The endpoint is deleted.',
};

const DISABLED_REASONS: Record<string, string> = {
  gone: 'disabled: the receiver answered 410 Gone',
  failing: 'disabled: every delivery failed for too long',
};

/** An endpoint as the pages show it. */
const toView = (endpoint: Endpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  events: endpoint.events.includes('*') ? 'all events' : endpoint.events.join(', '),
  state: endpoint.active ? 'active' : (DISABLED_REASONS[endpoint.disabled_reason ?? ''] ?? 'disabled'),
  active: endpoint.active,
});

/**
 * Settings > Integrations > Webhooks: endpoints, their signing secrets (shown once, at creation and
 * rotation) and their recent deliveries, through the JSON routes' services and their action
 * (`manage_webhooks`: owners and admins).
 */
export function webhookPages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;
  const member = requireMember(services);
  const path = '/b/:business_id/integrations/webhooks';
  const listOf = (who: SignedInMember) => `${BASE_PATH}/b/${who.principal.businessId}/integrations/webhooks`;

  const manager = (req: Request, res: Response): SignedInMember => {
    const who = memberOf(res);
    authorize(who.principal, 'manage_webhooks');
    if (req.method === 'POST') assertFormPost(req, services, who.token);
    return who;
  };

  async function showList(
    res: Response,
    who: SignedInMember,
    status: number,
    view: { values?: Record<string, unknown>; errors?: FieldErrors; formError?: string; saved?: string } = {},
  ) {
    const page = { limit: ENDPOINTS_SHOWN, offset: 0 };
    const endpoints = await listEndpoints(pool, who.principal.businessId, page);
    sendView(res, status, 'webhooks', {
      ...memberFrame(who, 'Webhooks', 'integrations'),
      endpoints: endpoints.rows.map(toView),
      total: endpoints.total,
      eventTypes: EVENT_TYPES,
      values: { url: '', description: '', events: [], ...view.values },
      errors: view.errors ?? {},
      formError: view.formError,
      saved: view.saved,
    });
  }

  async function showEndpoint(res: Response, who: SignedInMember, id: string, status: number, secret?: string) {
    const endpoint = await getEndpoint(pool, who.principal.businessId, id);
    const page = { limit: DELIVERIES_SHOWN, offset: 0 };
    const deliveries = await listDeliveries(pool, who.principal.businessId, id, page);
    const saved = typeof res.req.query.saved === 'string' ? SAVED[res.req.query.saved] : undefined;
    sendView(res, status, 'webhook', {
      ...memberFrame(who, 'A webhook endpoint', 'integrations'),
      endpoint: toView(endpoint),
      secret,
      saved,
      deliveries: deliveries.rows.map((d) => ({
        type: d.event_type,
        status: d.status,
        attempts: d.attempts,
        code: d.last_status_code,
        error: d.last_error,
        last: when(d.last_attempt_at),
        created: when(d.created_at),
      })),
      total: deliveries.total,
    });
  }

  router.get(path, member, async (req, res) => {
    const who = manager(req, res);
    const saved = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    await showList(res, who, 200, { saved });
  });

  router.post(path, member, formBody, async (req, res) => {
    const who = manager(req, res);
    const fields = formFields(req);
    const events = formList(req, 'events');
    const values = { url: fields.url ?? '', description: fields.description ?? '', events };
    const labels = { url: 'The URL', events: 'The events', description: 'The description' };
    const form = parseForm(createWebhookBody, values, labels);
    if (!form.ok) {
      const errors = { ...form.errors };
      if (errors.events) errors.events = 'Choose at least one event type, or all events.';
      return showList(res, who, 400, { values, errors });
    }
    let created: Awaited<ReturnType<typeof createEndpoint>>;
    try {
      created = await createEndpoint(pool, who.principal.businessId, form.data, {
        allowPrivateNetworks: services.webhookAllowPrivateNetworks,
        maxEndpoints: services.webhookMaxEndpoints,
      });
    } catch (err) {
      if (!(err instanceof HttpError) || (err.statusCode !== 400 && err.statusCode !== 409)) throw err;
      // A 400 is about the URL (https, a public address); a 409 is the cap on endpoints.
      const view =
        err.statusCode === 400
          ? { values, errors: { url: err.message.replace(/^Validation failed: url: /, 'The URL ') + '.' } }
          : { values, formError: err.message };
      return showList(res, who, err.statusCode, view);
    }
    // The signing secret exists in full only in this answer: shown once, never stored by the page.
    await showEndpoint(res, who, created.endpoint.id, 201, created.secret);
  });

  const one = `${path}/:webhook_id`;
  const idOf = (req: Request) => idParam(req.params.webhook_id, 'Webhook');

  router.get(one, member, async (req, res) => {
    const who = manager(req, res);
    await showEndpoint(res, who, idOf(req), 200);
  });

  router.post(`${one}/test`, member, formBody, async (req, res) => {
    const who = manager(req, res);
    const id = idOf(req);
    await sendTestEvent(pool, who.principal.businessId, id);
    res.redirect(303, `${listOf(who)}/${id}?saved=test`);
  });

  router.post(`${one}/rotate-secret`, member, formBody, async (req, res) => {
    const who = manager(req, res);
    const id = idOf(req);
    const secret = await rotateSecret(pool, who.principal.businessId, id);
    await showEndpoint(res, who, id, 200, secret);
  });

  router.post(`${one}/active`, member, formBody, async (req, res) => {
    const who = manager(req, res);
    const id = idOf(req);
    const active = formFields(req).active === 'true';
    await changeEndpoint(pool, who.principal.businessId, id, { active }, services.webhookAllowPrivateNetworks);
    res.redirect(303, `${listOf(who)}/${id}?saved=${active ? 'enabled' : 'disabled'}`);
  });

  router.get(`${one}/delete`, member, async (req, res) => {
    const who = manager(req, res);
    const endpoint = await getEndpoint(pool, who.principal.businessId, idOf(req));
    sendView(res, 200, 'webhook-delete', {
      ...memberFrame(who, 'Delete a webhook endpoint', 'integrations'),
      endpoint: toView(endpoint),
    });
  });

  router.post(`${one}/delete`, member, formBody, async (req, res) => {
    const who = manager(req, res);
    await removeEndpoint(pool, who.principal.businessId, idOf(req));
    res.redirect(303, `${listOf(who)}?saved=deleted`);
  });

  return router;
}
