import { Router, type Request, type Response } from 'express';
import { authorize, type Action } from '../auth/authorize.js';
import { updateBusinessBody } from '../businesses/business.schemas.js';
import { changeBusiness, getBusiness } from '../businesses/business.service.js';
import { HttpError } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { locationBody } from '../locations/location.schemas.js';
import {
  changeLocation,
  createLocation,
  getLocation,
  listLocations,
  removeLocation,
} from '../locations/location.service.js';
import { MAX_OFFSET } from '../shared/schemas.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

const LOCATIONS_SHOWN = 50;

/** What a post's redirect says happened: fixed words, never text from the address. */
const SAVED: Record<string, string> = {
  business: 'The settings are saved.',
  location: 'The location is added.',
  renamed: 'The location is renamed.',
  deleted: 'The location is deleted.',
};

interface SettingsView {
  /** The business form's values and errors, when it is shown again. */
  business?: { values: Record<string, string>; errors: FieldErrors };
  /** The new location form's. */
  adding?: { values: Record<string, string>; errors: FieldErrors };
  /** A rename form's, by the location's id. */
  renaming?: { id: string; values: Record<string, string>; errors: FieldErrors };
  saved?: string;
  offset?: number;
}

/** The refusals a person can act on, beside the field: a name taken (409) or not accepted (400). */
function fieldRefusal(err: unknown): string {
  if (err instanceof HttpError && (err.statusCode === 409 || err.statusCode === 400)) return err.message;
  throw err;
}

/**
 * Settings: the business's name and Approval required (authorize's `manage_business`), and its
 * locations (`write` to add, rename and delete, `read` to see), through the JSON routes' services,
 * with their rules: names unique ignoring case, a location still in use deleted only when its uses
 * are detached.
 */
export function settingsPages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;
  const member = requireMember(services);
  const path = '/b/:business_id/settings';
  const settingsOf = (who: SignedInMember) => `${BASE_PATH}/b/${who.principal.businessId}/settings`;

  /** The member may do `action`, and a post comes from the dashboard with its token. */
  const allowedTo = (req: Request, res: Response, action: Action): SignedInMember => {
    const who = memberOf(res);
    authorize(who.principal, action);
    if (req.method === 'POST') assertFormPost(req, services, who.token);
    return who;
  };

  async function show(res: Response, who: SignedInMember, status: number, view: SettingsView) {
    const businessId = who.principal.businessId;
    const offset = view.offset ?? 0;
    const page = { sort: 'name', order: 'asc', limit: LOCATIONS_SHOWN, offset } as const;
    const [business, locations] = await Promise.all([
      getBusiness(pool, businessId),
      listLocations(pool, businessId, page),
    ]);
    const next = offset + LOCATIONS_SHOWN < locations.total ? offset + LOCATIONS_SHOWN : null;
    sendView(res, status, 'settings', {
      ...memberFrame(who, 'Settings', 'settings'),
      settings: view.business ?? {
        values: { name: business.name, approval_required: String(business.approval_required) },
        errors: {},
      },
      adding: view.adding ?? { values: {}, errors: {} },
      renaming: view.renaming,
      locations: locations.rows.map((row) => ({ id: row.id, name: row.name })),
      total: locations.total,
      offset,
      next,
      previous: offset > 0 ? Math.max(0, offset - LOCATIONS_SHOWN) : null,
      saved: view.saved,
    });
  }

  router.get(path, member, async (req, res) => {
    const who = allowedTo(req, res, 'read');
    const saved = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    const asked = Number(req.query.offset);
    const offset = Number.isSafeInteger(asked) && asked > 0 && asked <= MAX_OFFSET ? asked : 0;
    await show(res, who, 200, { saved, offset });
  });

  router.post(path, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'manage_business');
    const fields = formFields(req);
    const values = {
      name: fields.name ?? '',
      approval_required: fields.approval_required === 'true' ? 'true' : 'false',
    };
    const labels = { name: 'The name', approval_required: 'Approval required' };
    const form = parseForm(
      updateBusinessBody,
      { name: values.name, approval_required: values.approval_required === 'true' },
      labels,
    );
    if (!form.ok) return show(res, who, 400, { business: { values, errors: form.errors } });
    await changeBusiness(pool, who.principal.businessId, who.principal, form.data);
    res.redirect(303, `${settingsOf(who)}?saved=business`);
  });

  router.post(`${path}/locations`, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'write');
    const values = { name: formFields(req).name ?? '' };
    const form = parseForm(locationBody, values, { name: 'The name' });
    if (!form.ok) return show(res, who, 400, { adding: { values, errors: form.errors } });
    try {
      await createLocation(pool, who.principal.businessId, who.principal, form.data.name);
    } catch (err) {
      const status = err instanceof HttpError ? err.statusCode : 500;
      return show(res, who, status, { adding: { values, errors: { name: fieldRefusal(err) } } });
    }
    res.redirect(303, `${settingsOf(who)}?saved=location`);
  });

  const one = `${path}/locations/:location_id`;

  router.post(one, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'write');
    const id = idParam(req.params.location_id, 'Location');
    const values = { name: formFields(req).name ?? '' };
    const form = parseForm(locationBody, values, { name: 'The name' });
    if (!form.ok) return show(res, who, 400, { renaming: { id, values, errors: form.errors } });
    try {
      await changeLocation(pool, who.principal.businessId, who.principal, id, form.data.name);
    } catch (err) {
      const status = err instanceof HttpError ? err.statusCode : 500;
      return show(res, who, status, { renaming: { id, values, errors: { name: fieldRefusal(err) } } });
    }
    res.redirect(303, `${settingsOf(who)}?saved=renamed`);
  });

  const showDelete = async (res: Response, who: SignedInMember, id: string, status: number, refusal?: string) => {
    const location = await getLocation(pool, who.principal.businessId, id);
    sendView(res, status, 'location-delete', {
      ...memberFrame(who, 'Delete a location', 'settings'),
      location: { id: location.id, name: location.name },
      refusal,
    });
  };

  router.get(`${one}/delete`, member, async (req, res) => {
    const who = allowedTo(req, res, 'write');
    await showDelete(res, who, idParam(req.params.location_id, 'Location'), 200);
  });

  router.post(`${one}/delete`, member, formBody, async (req, res) => {
    const who = allowedTo(req, res, 'write');
    const id = idParam(req.params.location_id, 'Location');
    const force = formFields(req).force === 'true';
    try {
      await removeLocation(pool, who.principal.businessId, who.principal, id, force);
    } catch (err) {
      // Still named by QR codes, suggestions or issues: the page says by how many, and offers to detach them.
      if (err instanceof HttpError && err.statusCode === 409) {
        return showDelete(res, who, id, 409, err.message.split(';')[0]);
      }
      throw err;
    }
    res.redirect(303, `${settingsOf(who)}?saved=deleted`);
  });

  return router;
}
