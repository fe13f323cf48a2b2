import { Router, type Request, type Response } from 'express';
import { createApiKeyBody } from '../api-keys/api-key.schemas.js';
import { createApiKey, listApiKeys, revokeKey } from '../api-keys/api-key.service.js';
import { authorize } from '../auth/authorize.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { getTeam } from '../team/team.service.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

/** Keys listed on the page: the newest, revoked ones included, as the JSON list shows them. */
const KEYS_SHOWN = 100;

/** A live key of the business, found through the JSON list's service, a page at a time. */
async function findLiveKey(pool: Services['db']['pool'], businessId: string, id: string) {
  for (let offset = 0; ; offset += KEYS_SHOWN) {
    const page = { sort: 'created_at', order: 'desc', limit: KEYS_SHOWN, offset } as const;
    const { rows, total } = await listApiKeys(pool, businessId, page);
    const key = rows.find((row) => row.id === id);
    if (key) return key.revoked_at ? null : key;
    if (rows.length === 0 || offset + KEYS_SHOWN >= total) return null;
  }
}

interface KeysView {
  values?: Record<string, string>;
  errors?: FieldErrors;
  /** The key just made, shown in full this once. */
  created?: { name: string; key: string; scope: string };
  /** The id of the key just revoked. */
  revoked?: string;
}

/**
 * Settings > Integrations > API keys (spec 5.6): the JSON routes' services, and their action
 * (`manage_keys`): owners and admins only, as on the JSON routes; members are refused (403).
 */
export function integrationPages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;
  const member = requireMember(services);
  const path = '/b/:business_id/integrations';

  /** The page, with every key's creator by name (a key acts for its creator). */
  async function showKeys(res: Response, who: SignedInMember, status: number, view: KeysView) {
    const businessId = who.principal.businessId;
    const [keys, team] = await Promise.all([
      listApiKeys(pool, businessId, { sort: 'created_at', order: 'desc', limit: KEYS_SHOWN, offset: 0 }),
      getTeam(pool, businessId),
    ]);
    const names = new Map(team.members.map((m) => [m.id, m.name ?? m.email]));
    const rows = keys.rows.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      scope: key.scope,
      creator: names.get(key.created_by) ?? 'a former member',
      created: when(key.created_at),
      lastUsed: when(key.last_used_at),
      revoked: when(key.revoked_at),
    }));
    sendView(res, status, 'integrations', {
      ...memberFrame(who, 'Integrations', 'integrations'),
      keys: rows,
      total: keys.total,
      values: { scope: 'read', ...view.values },
      errors: view.errors ?? {},
      created: view.created,
      revoked: rows.find((row) => row.id === view.revoked)?.name,
    });
  }

  /** Every page and post here: the member may manage keys, as authorize() says for the JSON routes. */
  const keyManager = (req: Request, res: Response): SignedInMember => {
    const who = memberOf(res);
    authorize(who.principal, 'manage_keys');
    if (req.method === 'POST') assertFormPost(req, services, who.token);
    return who;
  };

  router.get(path, member, async (req, res) => {
    const who = keyManager(req, res);
    const revoked = typeof req.query.revoked === 'string' ? req.query.revoked : undefined;
    await showKeys(res, who, 200, { revoked });
  });

  router.post(`${path}/api-keys`, member, formBody, async (req, res) => {
    const who = keyManager(req, res);
    const fields = formFields(req);
    const values = { name: fields.name ?? '', scope: fields.scope ?? '' };
    const form = parseForm(createApiKeyBody, values, { name: 'The name', scope: 'the access' });
    if (!form.ok) return showKeys(res, who, 400, { values, errors: form.errors });
    const { row, key } = await createApiKey(
      pool,
      who.principal.businessId,
      { ...form.data, createdBy: who.principal.userId },
      { maxActive: services.apiKeysMaxPerBusiness },
    );
    // The only moment the key exists outside its holder: shown in this answer, never stored, never cached.
    await showKeys(res, who, 201, { created: { name: row.name, key, scope: row.scope } });
  });

  const oneKey = `${path}/api-keys/:key_id/revoke`;

  router.get(oneKey, member, async (req, res) => {
    const who = keyManager(req, res);
    const id = idParam(req.params.key_id, 'API key');
    const key = await findLiveKey(pool, who.principal.businessId, id);
    if (!key) return res.redirect(303, `${BASE_PATH}/b/${who.principal.businessId}/integrations`);
    sendView(res, 200, 'key-revoke', {
      ...memberFrame(who, 'Revoke an API key', 'integrations'),
      key: { id: key.id, name: key.name, prefix: key.prefix, scope: key.scope },
    });
  });

  router.post(oneKey, member, formBody, async (req, res) => {
    const who = keyManager(req, res);
    const id = idParam(req.params.key_id, 'API key');
    await revokeKey(pool, who.principal.businessId, id, who.principal.userId);
    res.redirect(303, `${BASE_PATH}/b/${who.principal.businessId}/integrations?revoked=${id}`);
  });

  return router;
}
