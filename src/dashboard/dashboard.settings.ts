import { Router, type Request, type Response } from 'express';
import type { Business } from '../businesses/business.responses.js';
import { businessFeature } from '../businesses/business.routes.js';
import { operation } from '../http/operations.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import type { Location } from '../locations/location.responses.js';
import { locationFeature } from '../locations/location.routes.js';
import { t } from '../shared/messages.js';
import { MAX_OFFSET } from '../shared/schemas.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { assertMayRun, mayRun, mountForm, replyBody, type FormAction, type PageCall } from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

export const SETTINGS = {
  get: operation(businessFeature, 'getBusiness'),
  change: operation(businessFeature, 'updateBusiness'),
};
export const LOCATIONS = {
  list: operation(locationFeature, 'listLocations'),
  get: operation(locationFeature, 'getLocation'),
  create: operation(locationFeature, 'createLocation'),
  rename: operation(locationFeature, 'updateLocation'),
  remove: operation(locationFeature, 'deleteLocation'),
};

const LOCATIONS_SHOWN = 50;

/** What a post's redirect says happened: a catalogue key (`settings.saved.<this>`, `locations.saved.<this>`). */
const SAVED: Record<string, string> = {
  business: 'settings.saved.business',
  location: 'locations.saved.added',
  renamed: 'locations.saved.renamed',
  deleted: 'locations.saved.deleted',
};

const BUSINESS_LABELS = { name: 'settings.field.name', approval_required: 'settings.field.approval_required' };
const LOCATION_LABELS = { name: 'locations.field.name' };

interface SettingsView {
  status?: number;
  /** The business form's values and errors, when it is shown again. */
  business?: { values: Record<string, string>; errors: FieldErrors };
  /** The new location form's. */
  adding?: { values: Record<string, string>; errors: FieldErrors };
  /** A rename form's, by the location's id. */
  renaming?: { id: string; values: Record<string, string>; errors: FieldErrors };
  saved?: string;
  offset?: number;
}

type Page<T> = { data: T[]; total: number };

/**
 * Settings: the business's name and Approval required (PATCH /businesses/:id), and its locations
 * (their list, create, rename and delete operations), with those operations' rules and access: names
 * unique ignoring case, a location still in use deleted only when its uses are detached.
 */
async function show(services: Services, res: Response, who: SignedInMember, view: SettingsView) {
  const offset = view.offset ?? 0;
  const query = { sort: 'name', order: 'asc', limit: String(LOCATIONS_SHOWN), offset: String(offset) };
  const [business, locations] = await Promise.all([
    SETTINGS.get.invoke(services, who.principal).then((r) => replyBody<Business>(r)),
    LOCATIONS.list.invoke(services, who.principal, { query }).then((r) => replyBody<Page<Location>>(r)),
  ]);
  const next = offset + LOCATIONS_SHOWN < locations.total ? offset + LOCATIONS_SHOWN : null;
  sendView(res, view.status ?? 200, 'settings', {
    ...memberFrame(who, t('settings.title'), 'settings'),
    settings: view.business ?? {
      values: { name: business.name, approval_required: String(business.approval_required) },
      errors: {},
    },
    may: {
      business: mayRun(who.principal, SETTINGS.change),
      locations: mayRun(who.principal, LOCATIONS.create),
      tags: mayRun(who.principal, SETTINGS.change),
    },
    adding: view.adding ?? { values: {}, errors: {} },
    renaming: view.renaming,
    locations: locations.data.map((row) => ({ id: row.id, name: row.name })),
    total: locations.total,
    offset,
    next,
    previous: offset > 0 ? Math.max(0, offset - LOCATIONS_SHOWN) : null,
    saved: view.saved,
  });
}

/** The confirmation before a location is deleted, with the refusal that counts its uses. */
interface Refusal {
  status: number;
  words?: string;
}

async function showDelete(services: Services, res: Response, who: SignedInMember, id: string, refused?: Refusal) {
  const location = replyBody<Location>(await LOCATIONS.get.invoke(services, who.principal, { params: { id } }));
  sendView(res, refused?.status ?? 200, 'location-delete', {
    ...memberFrame(who, t('locations.delete.title'), 'settings'),
    location: { id: location.id, name: location.name },
    refusal: refused?.words,
  });
}

const path = '/b/:business_id/settings';
const one = `${path}/locations/:id`;
const settingsOf = ({ who }: PageCall, saved: string) =>
  `${BASE_PATH}/b/${who.principal.businessId}/settings?saved=${saved}`;
const thisLocation = (req: Request) => String(req.params.id).toLowerCase();

export const SETTINGS_FORMS: FormAction[] = [
  {
    path,
    runs: SETTINGS.change,
    body: (fields) => ({ name: fields.name ?? '', approval_required: fields.approval_required === 'true' }),
    labels: BUSINESS_LABELS,
    done: (call) => settingsOf(call, 'business'),
    again: ({ services, res, who }, { status, values, errors }) =>
      show(services, res, who, {
        status,
        business: {
          values: {
            name: values.name ?? '',
            approval_required: values.approval_required === 'true' ? 'true' : 'false',
          },
          errors,
        },
      }),
  },
  {
    path: `${path}/locations`,
    runs: LOCATIONS.create,
    body: (fields) => ({ name: fields.name ?? '' }),
    labels: LOCATION_LABELS,
    done: (call) => settingsOf(call, 'location'),
    again: ({ services, res, who }, { status, values, errors }) =>
      show(services, res, who, { status, adding: { values: { name: values.name ?? '' }, errors } }),
  },
  {
    path: one,
    runs: LOCATIONS.rename,
    body: (fields) => ({ name: fields.name ?? '' }),
    labels: LOCATION_LABELS,
    done: (call) => settingsOf(call, 'renamed'),
    again: ({ services, req, res, who }, { status, values, errors }) =>
      show(services, res, who, {
        status,
        renaming: { id: thisLocation(req), values: { name: values.name ?? '' }, errors },
      }),
  },
  {
    path: `${one}/delete`,
    runs: LOCATIONS.remove,
    // Still named by QR codes, suggestions or issues: the page says by how many, and offers to detach them.
    query: (fields) => ({ force: fields.force === 'true' ? 'true' : 'false' }),
    labels: LOCATION_LABELS,
    done: (call) => settingsOf(call, 'deleted'),
    again: ({ services, req, res, who }, { status, errors }) =>
      showDelete(services, res, who, thisLocation(req), { status, words: errors[''] ?? errors.force }),
  },
];

export function settingsPages(services: Services): Router {
  const router = Router();
  const member = requireMember(services);
  router.get(path, member, async (req, res) => {
    const key = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    const asked = Number(req.query.offset);
    const offset = Number.isSafeInteger(asked) && asked > 0 && asked <= MAX_OFFSET ? asked : 0;
    await show(services, res, memberOf(res), { saved: key && t(key), offset });
  });
  router.get(`${one}/delete`, member, async (req, res) => {
    const who = memberOf(res);
    assertMayRun(who.principal, LOCATIONS.remove);
    await showDelete(services, res, who, idParam(req.params.id, 'Location'));
  });
  for (const action of SETTINGS_FORMS) mountForm(router, services, action);
  return router;
}
