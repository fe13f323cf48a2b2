import { Router, type Request, type Response } from 'express';
import type { ApiKey } from '../api-keys/api-key.responses.js';
import { apiKeyFeature } from '../api-keys/api-key.routes.js';
import { operation } from '../http/operations.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import type { Team } from '../team/team.responses.js';
import { teamFeature } from '../team/team.routes.js';
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
import { BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

export const KEYS = {
  list: operation(apiKeyFeature, 'listApiKeys'),
  create: operation(apiKeyFeature, 'createApiKey'),
  revoke: operation(apiKeyFeature, 'revokeApiKey'),
};
const TEAM = operation(teamFeature, 'getTeam');

/** Keys listed on the page: the newest, revoked ones included, as the JSON list shows them. */
const KEYS_SHOWN = 100;
type Page<T> = { data: T[]; total: number };

const LABELS = { name: 'app.keys.field.name', scope: 'app.keys.field.scope' };

/** The key just made, carried to the page once (dashboard.flash.ts). */
interface Created {
  name: string;
  key: string;
  scope: string;
}

interface KeysView {
  status?: number;
  values?: Record<string, string>;
  errors?: FieldErrors;
  created?: Created;
  /** The id of the key just revoked. */
  revoked?: string;
}

const pagePath = (businessId: string) => `${BASE_PATH}/b/${businessId}/integrations`;

const keysPage = (services: Services, who: SignedInMember, offset = 0) =>
  KEYS.list
    .invoke(services, who.principal, { query: { limit: String(KEYS_SHOWN), offset: String(offset) } })
    .then((reply) => replyBody<Page<ApiKey>>(reply));

/** A live key of the business, found through the list operation, a page at a time. */
async function findLiveKey(services: Services, who: SignedInMember, id: string) {
  for (let offset = 0; ; offset += KEYS_SHOWN) {
    const { data, total } = await keysPage(services, who, offset);
    const key = data.find((row) => row.id === id);
    if (key) return key.revoked_at ? null : key;
    if (data.length === 0 || offset + KEYS_SHOWN >= total) return null;
  }
}

/**
 * Settings > Integrations > API keys (spec 5.6), through the API key operations, whose access
 * (`manage_keys`: owners and admins; members are refused, 403) is the page's too. The page shows each
 * key's creator by name (a key acts for its creator).
 */
async function showKeys(services: Services, res: Response, who: SignedInMember, view: KeysView) {
  assertMayRun(who.principal, KEYS.list);
  const [keys, team] = await Promise.all([
    keysPage(services, who),
    TEAM.invoke(services, who.principal, {}).then((reply) => replyBody<Team>(reply)),
  ]);
  const names = new Map(team.members.map((m) => [m.user_id, m.name ?? m.email]));
  const at = (instant: string | null) => when(instant ? new Date(instant) : null);
  const rows = keys.data.map((key) => ({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scope: t(`app.keys.scope.${key.scope}`),
    creator: names.get(key.created_by) ?? t('app.keys.former_member'),
    created: at(key.created_at),
    lastUsed: at(key.last_used_at),
    revoked: at(key.revoked_at),
  }));
  sendView(res, view.status ?? 200, 'integrations', {
    ...memberFrame(who, t('app.keys.title'), 'integrations'),
    keys: rows,
    total: keys.total,
    values: { scope: 'read', ...view.values },
    errors: view.errors ?? {},
    created: view.created && { ...view.created, scope: t(`app.keys.scope.${view.created.scope}`) },
    revoked: rows.find((row) => row.id === view.revoked)?.name,
  });
}

const again = ({ services, res, who }: PageCall, { status, values, errors }: Refused) =>
  showKeys(services, res, who, { status, values: { name: values.name ?? '', scope: values.scope ?? '' }, errors });

const path = '/b/:business_id/integrations';

export const KEY_FORMS: FormAction[] = [
  {
    path: `${path}/api-keys`,
    runs: KEYS.create,
    body: (fields) => ({ name: fields.name ?? '', scope: fields.scope ?? '' }),
    labels: LABELS,
    // Redirect after post: the key goes to the page once, sealed in a cookie, so a reload makes none.
    done: ({ req, res, who }, reply) => {
      const { name, key, scope } = replyBody<Created>(reply);
      const to = pagePath(who.principal.businessId);
      setFlash(req, res, who.token, to, { name, key, scope } satisfies Created);
      return to;
    },
    again,
  },
  {
    path: `${path}/api-keys/:id/revoke`,
    runs: KEYS.revoke,
    done: ({ who, req }) => `${pagePath(who.principal.businessId)}?revoked=${String(req.params.id).toLowerCase()}`,
  },
];

export function integrationPages(services: Services): Router {
  const router = Router();
  const member = requireMember(services);

  router.get(path, member, async (req: Request, res: Response) => {
    const who = memberOf(res);
    assertMayRun(who.principal, KEYS.list);
    const created = takeFlash<Created>(req, res, who.token, pagePath(who.principal.businessId));
    const revoked = typeof req.query.revoked === 'string' ? req.query.revoked : undefined;
    await showKeys(services, res, who, { created, revoked });
  });

  router.get(`${path}/api-keys/:id/revoke`, member, async (req, res) => {
    const who = memberOf(res);
    assertMayRun(who.principal, KEYS.revoke);
    const key = await findLiveKey(services, who, idParam(req.params.id, 'API key'));
    if (!key) return res.redirect(303, pagePath(who.principal.businessId));
    sendView(res, 200, 'key-revoke', {
      ...memberFrame(who, t('app.keys.revoke.title'), 'integrations'),
      key: { id: key.id, name: key.name, prefix: key.prefix, scope: t(`app.keys.scope.${key.scope}`) },
    });
  });

  for (const action of KEY_FORMS) mountForm(router, services, action);
  return router;
}
