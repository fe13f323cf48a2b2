import { Router, type Response } from 'express';
import type { Business } from '../businesses/business.responses.js';
import { businessFeature } from '../businesses/business.routes.js';
import { contrastShortfall, BRAND_COLOR_PATTERN, MIN_CONTRAST } from '../businesses/brand.color.js';
import { brandCssPath } from '../businesses/brand.stylesheet.js';
import { LOGO_MAX_BYTES, logoPath } from '../businesses/logo.image.js';
import { getLogo } from '../businesses/logo.service.js';
import { operation } from '../http/operations.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { mayRun, mountForm, pageRead, replyBody, type FormAction, type PageCall } from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

export const BRAND = {
  read: operation(businessFeature, 'getBusiness'),
  change: operation(businessFeature, 'updateBusiness'),
  putLogo: operation(businessFeature, 'putBusinessLogo'),
  deleteLogo: operation(businessFeature, 'deleteBusinessLogo'),
};

const LABELS = { brand_color: 'app.brand.field.brand_color', logo: 'app.brand.field.logo' };
const path = '/b/:business_id/settings/brand';

interface Shown {
  status?: number;
  color?: { value: string; errors: FieldErrors };
  logoErrors?: FieldErrors;
  saved?: string;
  /** A colour asked to be previewed (`?preview=`), not saved. */
  preview?: string;
}

/**
 * The preview's colour and what it says: a readable colour is shown through its own stylesheet (the
 * page's CSP allows no inline style), an unreadable one is named with its ratio and not shown.
 */
function previewOf(color: string | null) {
  if (!color) return { css: null, color: null, unreadable: null };
  const shortfall = contrastShortfall(color);
  if (shortfall) {
    const words = t('app.brand.preview.unreadable', {
      color,
      ratio: shortfall.ratio.toFixed(2),
      against: shortfall.against,
      min: MIN_CONTRAST,
    });
    return { css: null, color, unreadable: words };
  }
  return { css: brandCssPath(color), color, unreadable: null };
}

async function show(services: Services, res: Response, who: SignedInMember, shown: Shown) {
  const businessId = who.principal.businessId;
  const [business, logo] = await Promise.all([
    BRAND.read.invoke(services, who.principal).then((reply) => replyBody<Business>(reply)),
    pageRead(services, who.principal, (db) => getLogo(db, businessId)),
  ]);
  const asked = shown.preview && BRAND_COLOR_PATTERN.test(shown.preview) ? shown.preview.toLowerCase() : null;
  const preview = previewOf(asked ?? business.brand_color);
  sendView(res, shown.status ?? 200, 'brand-settings', {
    ...memberFrame(who, t('app.brand.title'), 'settings'),
    t,
    color: shown.color ?? { value: business.brand_color ?? '', errors: {} },
    logoErrors: shown.logoErrors ?? {},
    logo: logo ? { src: logoPath(businessId, logo), width: logo.width, height: logo.height } : null,
    preview,
    previewing: asked !== null,
    brandCss: preview.css,
    maxKb: LOGO_MAX_BYTES / 1024,
    may: { change: mayRun(who.principal, BRAND.change), logo: mayRun(who.principal, BRAND.putLogo) },
    saved: shown.saved,
  });
}

const back = ({ who }: PageCall, saved: string) =>
  `${BASE_PATH}/b/${who.principal.businessId}/settings/brand?saved=${saved}`;

const SAVED: Record<string, string> = {
  color: 'app.brand.saved.color',
  logo: 'app.brand.saved.logo',
  removed: 'app.brand.saved.removed',
};

/**
 * Settings, Brand (docs/brand.md): the colour runs PATCH /businesses/{id} and the logo PUT and DELETE
 * /businesses/{id}/logo, so who may change them and the contrast and image rules are decided there.
 * The logo is sent as multipart/form-data: the one way a browser sends a file without script.
 */
export const BRAND_FORMS: FormAction[] = [
  {
    path,
    runs: BRAND.change,
    labels: LABELS,
    body: (fields) => ({ brand_color: (fields.brand_color ?? '').trim() === '' ? null : fields.brand_color!.trim() }),
    done: (call) => back(call, 'color'),
    again: ({ services, res, who }, { status, values, errors }) =>
      show(services, res, who, { status, color: { value: values.brand_color ?? '', errors } }),
  },
  {
    path: `${path}/logo`,
    runs: BRAND.putLogo,
    labels: LABELS,
    upload: { maxBytes: LOGO_MAX_BYTES },
    body: (_fields, call) => call.files.logo ?? Buffer.alloc(0),
    done: (call) => back(call, 'logo'),
    again: ({ services, res, who }, { status, errors }) =>
      show(services, res, who, { status, logoErrors: { logo: errors.logo ?? errors[''] ?? '' } }),
  },
  {
    path: `${path}/logo/delete`,
    runs: BRAND.deleteLogo,
    done: (call) => back(call, 'removed'),
  },
];

export function brandSettingsPages(services: Services): Router {
  const router = Router();
  router.get(path, requireMember(services), async (req, res) => {
    const key = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    const preview = typeof req.query.preview === 'string' ? req.query.preview : undefined;
    await show(services, res, memberOf(res), { saved: key && t(key), preview });
  });
  for (const action of BRAND_FORMS) mountForm(router, services, action);
  return router;
}
