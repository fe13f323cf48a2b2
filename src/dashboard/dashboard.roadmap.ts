import { Router, type Response } from 'express';
import { businessFeature } from '../businesses/business.routes.js';
import { ROADMAP_STATUSES } from '../businesses/business.schemas.js';
import type { JsonReply } from '../http/reply.js';
import { operation } from '../http/operations.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { mountForm, type FormAction, type PageCall, type Refused } from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

const BUSINESS = {
  read: operation(businessFeature, 'getBusiness'),
  change: operation(businessFeature, 'updateBusiness'),
};

const LABELS = { roadmap_enabled: 'roadmap.field.roadmap_enabled', roadmap_statuses: 'roadmap.field.roadmap_statuses' };

/** A column is one select per place, in order (column_1 ... column_4); an empty one is no column. */
const PLACES = ROADMAP_STATUSES.map((_status, i) => `column_${i + 1}`);

const path = '/b/:business_id/settings/roadmap';

/** The form shown again with its errors, or the business's settings, with what was just saved. */
interface Shown {
  values?: Record<string, string>;
  errors?: FieldErrors;
  saved?: string;
}

/** The form's fields as the PATCH's body: an unticked box is not sent and means off; columns in order. */
const roadmapBody = (fields: Record<string, string>) => ({
  roadmap_enabled: fields.roadmap_enabled === 'true',
  roadmap_statuses: PLACES.map((place) => fields[place] ?? '').filter((status) => status !== ''),
});

/** The form as sent, to show again. */
const shownValues = (fields: Record<string, string>) => ({
  roadmap_enabled: fields.roadmap_enabled === 'true' ? 'true' : '',
  ...Object.fromEntries(PLACES.map((place) => [place, fields[place] ?? ''])),
});

async function show(services: Services, res: Response, who: SignedInMember, status: number, shown: Shown) {
  let values = shown.values;
  if (!values) {
    const business = ((await BUSINESS.read.invoke(services, who.principal)) as JsonReply).body as {
      roadmap_enabled: boolean;
      roadmap_statuses: string[];
    };
    values = {
      roadmap_enabled: business.roadmap_enabled ? 'true' : '',
      ...Object.fromEntries(PLACES.map((place, i) => [place, business.roadmap_statuses[i] ?? ''])),
    };
  }
  sendView(res, status, 'roadmap-settings', {
    ...memberFrame(who, t('roadmap.settings.title'), 'settings'),
    t,
    values,
    errors: shown.errors ?? {},
    saved: shown.saved,
    places: PLACES,
    statuses: ROADMAP_STATUSES.map((value) => ({ value, label: t(`roadmap.column.${value}`) })),
  });
}

/**
 * Settings, Roadmap (docs/roadmap.md): whether the public roadmap is shown, and its columns. The form
 * runs `PATCH /businesses/{business_id}` itself, so who may change it (`manage_business`) and which
 * columns are allowed are decided there.
 */
export const ROADMAP_FORMS: FormAction[] = [
  {
    path,
    runs: BUSINESS.change,
    labels: LABELS,
    body: roadmapBody,
    done: ({ who }: PageCall) => `${BASE_PATH}/b/${who.principal.businessId}/settings/roadmap?saved=1`,
    again: ({ res, who, services }: PageCall, { status, values, errors }: Refused) =>
      show(services, res, who, status, { values: shownValues(values), errors }),
  },
];

export function roadmapSettingsPages(services: Services): Router {
  const router = Router();
  router.get(path, requireMember(services), async (req, res) => {
    const saved = req.query.saved === '1' ? t('roadmap.settings.saved') : undefined;
    await show(services, res, memberOf(res), 200, { saved });
  });
  for (const action of ROADMAP_FORMS) mountForm(router, services, action);
  return router;
}
