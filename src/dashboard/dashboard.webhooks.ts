import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import { operation } from '../http/operations.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { EVENT_TYPES } from '../outbox/event.types.js';
import { t } from '../shared/messages.js';
import type { WebhookEndpoint, webhookDeliverySchema } from '../webhooks/webhook.responses.js';
import { webhookFeature } from '../webhooks/webhook.routes.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import {
  assertMayRun,
  mountForm,
  replyBody,
  type FormAction,
  type PageCall,
  type Refused,
} from './dashboard.actions.js';
import { setFlash, takeFlash } from './dashboard.flash.js';
import { formFields, formList } from './dashboard.forms.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

export const WEBHOOKS = {
  list: operation(webhookFeature, 'listWebhooks'),
  get: operation(webhookFeature, 'getWebhook'),
  create: operation(webhookFeature, 'createWebhook'),
  change: operation(webhookFeature, 'updateWebhook'),
  remove: operation(webhookFeature, 'deleteWebhook'),
  rotate: operation(webhookFeature, 'rotateWebhookSecret'),
  test: operation(webhookFeature, 'testWebhook'),
  deliveries: operation(webhookFeature, 'listWebhookDeliveries'),
};

type Delivery = z.infer<typeof webhookDeliverySchema>;
type Page<T> = { data: T[]; total: number };

const ENDPOINTS_SHOWN = '100';
const DELIVERIES_SHOWN = '20';

/** What a post's redirect says happened: a catalogue key (`webhooks.saved.<this>`). */
const SAVED = new Set(['test', 'disabled', 'enabled', 'deleted']);

const LABELS = {
  url: 'webhooks.field.url',
  events: 'webhooks.field.events',
  description: 'webhooks.field.description',
};

/** An endpoint as the pages show it. */
const toView = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  events: endpoint.events.includes('*') ? t('webhooks.events.all') : endpoint.events.join(', '),
  state: endpoint.active
    ? t('webhooks.state.active')
    : t(endpoint.disabled_reason ? `webhooks.state.${endpoint.disabled_reason}` : 'webhooks.state.disabled'),
  active: endpoint.active,
});

const savedOf = (req: Request) =>
  typeof req.query.saved === 'string' && SAVED.has(req.query.saved)
    ? t(`webhooks.saved.${req.query.saved}`)
    : undefined;

interface ListView {
  status?: number;
  values?: { url: string; description: string; events: string[] };
  errors?: FieldErrors;
}

/**
 * Settings > Integrations > Webhooks: endpoints, their signing secrets (shown once, at creation and
 * rotation) and their recent deliveries, through the webhook operations, whose access
 * (`manage_webhooks`: owners and admins) is the pages' too.
 */
async function showList(services: Services, req: Request, res: Response, who: SignedInMember, view: ListView) {
  const query = { limit: ENDPOINTS_SHOWN };
  const endpoints = replyBody<Page<WebhookEndpoint>>(await WEBHOOKS.list.invoke(services, who.principal, { query }));
  sendView(res, view.status ?? 200, 'webhooks', {
    ...memberFrame(who, t('webhooks.title'), 'integrations'),
    endpoints: endpoints.data.map(toView),
    total: endpoints.total,
    eventTypes: EVENT_TYPES,
    values: view.values ?? { url: '', description: '', events: [] },
    errors: view.errors ?? {},
    formError: view.errors?.[''],
    saved: view.status ? undefined : savedOf(req),
  });
}

async function showEndpoint(
  services: Services,
  req: Request,
  res: Response,
  who: SignedInMember,
  id: string,
  shown: { status: number; secret?: string },
) {
  const params = { id };
  const [endpoint, deliveries] = await Promise.all([
    WEBHOOKS.get.invoke(services, who.principal, { params }).then((r) => replyBody<WebhookEndpoint>(r)),
    WEBHOOKS.deliveries
      .invoke(services, who.principal, { params, query: { limit: DELIVERIES_SHOWN } })
      .then((r) => replyBody<Page<Delivery>>(r)),
  ]);
  sendView(res, shown.status, 'webhook', {
    ...memberFrame(who, t('webhooks.endpoint.title'), 'integrations'),
    endpoint: toView(endpoint),
    secret: shown.secret,
    saved: shown.secret ? undefined : savedOf(req),
    deliveries: deliveries.data.map((d) => ({
      type: d.event_type,
      status: d.status,
      attempts: d.attempts,
      code: d.last_status_code,
      error: d.last_error,
      last: d.last_attempt_at ? when(new Date(d.last_attempt_at)) : null,
      created: when(new Date(d.created_at)),
    })),
    total: deliveries.total,
  });
}

const path = '/b/:business_id/integrations/webhooks';
const one = `${path}/:id`;
const listOf = ({ who }: Pick<PageCall, 'who'>) => `${BASE_PATH}/b/${who.principal.businessId}/integrations/webhooks`;
const thisEndpoint = (req: Request) => String(req.params.id).toLowerCase();

const createAgain = ({ services, req, res, who }: PageCall, { status, values, errors }: Refused) =>
  showList(services, req, res, who, {
    status,
    values: { url: values.url ?? '', description: values.description ?? '', events: formList(req, 'events') },
    errors,
  });

/** The endpoint's page, with its secret sealed for it alone, to show once. */
function withSecret(call: PageCall, id: string, secret: string): string {
  const to = `${listOf(call)}/${id}`;
  setFlash(call.req, call.res, call.who.token, to, { secret });
  return to;
}

export const WEBHOOK_FORMS: FormAction[] = [
  {
    path,
    runs: WEBHOOKS.create,
    body: (fields, { req }) => ({
      url: fields.url ?? '',
      events: formList(req, 'events'),
      description: fields.description?.trim() ? fields.description : undefined,
    }),
    labels: LABELS,
    // Redirect after post: the signing secret rides to the endpoint's page once (dashboard.flash.ts).
    done: (call, reply) => {
      const created = replyBody<WebhookEndpoint & { secret: string }>(reply);
      return withSecret(call, created.id, created.secret);
    },
    again: createAgain,
  },
  {
    path: `${one}/test`,
    runs: WEBHOOKS.test,
    done: (call) => `${listOf(call)}/${thisEndpoint(call.req)}?saved=test`,
  },
  {
    path: `${one}/rotate-secret`,
    runs: WEBHOOKS.rotate,
    done: (call, reply) => withSecret(call, thisEndpoint(call.req), replyBody<{ secret: string }>(reply).secret),
  },
  {
    path: `${one}/active`,
    runs: WEBHOOKS.change,
    body: (fields) => ({ active: fields.active === 'true' }),
    done: (call) =>
      `${listOf(call)}/${thisEndpoint(call.req)}?saved=${formFields(call.req).active === 'true' ? 'enabled' : 'disabled'}`,
  },
  {
    path: `${one}/delete`,
    runs: WEBHOOKS.remove,
    done: (call) => `${listOf(call)}?saved=deleted`,
  },
];

export function webhookPages(services: Services): Router {
  const router = Router();
  const member = requireMember(services);
  router.get(path, member, async (req, res) => {
    await showList(services, req, res, memberOf(res), {});
  });
  router.get(one, member, async (req, res) => {
    const who = memberOf(res);
    const id = idParam(req.params.id, 'Webhook');
    const sealed = takeFlash<{ secret: string }>(req, res, who.token, `${listOf({ who })}/${id}`);
    await showEndpoint(services, req, res, who, id, { status: 200, secret: sealed?.secret });
  });
  router.get(`${one}/delete`, member, async (req, res) => {
    const who = memberOf(res);
    assertMayRun(who.principal, WEBHOOKS.remove);
    const params = { id: idParam(req.params.id, 'Webhook') };
    const endpoint = replyBody<WebhookEndpoint>(await WEBHOOKS.get.invoke(services, who.principal, { params }));
    sendView(res, 200, 'webhook-delete', {
      ...memberFrame(who, t('webhooks.delete.title'), 'integrations'),
      endpoint: toView(endpoint),
    });
  });
  for (const action of WEBHOOK_FORMS) mountForm(router, services, action);
  return router;
}
