import { Router, type Request, type Response } from 'express';
import { operation } from '../http/operations.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import type { Location } from '../locations/location.responses.js';
import { locationFeature } from '../locations/location.routes.js';
import type { QrCode } from '../qr-codes/qr-code.responses.js';
import { qrCodeFeature } from '../qr-codes/qr-code.routes.js';
import { t } from '../shared/messages.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { mayRun, mountForm, replyBody, type FormAction, type PageCall, type Refused } from './dashboard.actions.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

export const QR_CODES = {
  list: operation(qrCodeFeature, 'listQrCodes'),
  get: operation(qrCodeFeature, 'getQrCode'),
  create: operation(qrCodeFeature, 'createQrCode'),
  change: operation(qrCodeFeature, 'updateQrCode'),
  image: operation(qrCodeFeature, 'getQrCodeImage'),
};
const LOCATIONS = operation(locationFeature, 'listLocations');

/** What a post's redirect says happened: a catalogue key (`qr.saved.<this>`). */
const SAVED = new Set(['created', 'deactivated', 'activated']);

const LABELS = { label: 'qr.field.label', location_id: 'qr.field.location' };

/** The image sizes the downloads use: a PNG large enough to print, an SVG that scales. */
const PNG_SIZE = 1024;
const SVG_SIZE = 256;
const LOCATIONS_OFFERED = '100';

interface QrView {
  status?: number;
  creating?: { values: Record<string, string>; errors: FieldErrors };
  saved?: string;
}

type Page<T> = { data: T[]; total: number; limit: number; offset: number };

const listOf = (who: SignedInMember) => `${BASE_PATH}/b/${who.principal.businessId}/qr-codes`;

/**
 * QR codes, through the QR code operations: the list (with each code's scans in the last 30 days),
 * creating one, deactivating and activating (PATCH `active`), the PNG and SVG images (GET
 * .../qr-codes/:id/image) and a print sheet. Who may do which is the operations' own.
 */
async function show(services: Services, req: Request, res: Response, who: SignedInMember, view: QrView) {
  const offset = typeof req.query.offset === 'string' && /^\d{1,6}$/.test(req.query.offset) ? req.query.offset : '0';
  const [codes, locations] = await Promise.all([
    QR_CODES.list.invoke(services, who.principal, { query: { offset } }).then((r) => replyBody<Page<QrCode>>(r)),
    LOCATIONS.invoke(services, who.principal, {
      query: { sort: 'name', order: 'asc', limit: LOCATIONS_OFFERED },
    }).then((r) => replyBody<Page<Location>>(r)),
  ]);
  const { limit } = codes;
  const at = codes.offset;
  const names = new Map(locations.data.map((l) => [l.id, l.name]));
  const base = listOf(who);
  sendView(res, view.status ?? 200, 'qr-codes', {
    ...memberFrame(who, t('qr.title'), 'qr-codes'),
    codes: codes.data.map((qr) => ({
      id: qr.id,
      label: qr.label,
      url: qr.url,
      location: qr.location_id ? (names.get(qr.location_id) ?? t('qr.a_location')) : null,
      active: qr.active,
      scans: qr.scans_last_30_days,
      created: when(new Date(qr.created_at)),
    })),
    total: codes.total,
    next: at + limit < codes.total ? `${base}?offset=${at + limit}` : undefined,
    previous: at > 0 ? `${base}?offset=${Math.max(0, at - limit)}` : undefined,
    locations: locations.data.map((l) => ({ id: l.id, name: l.name })),
    canCreate: mayRun(who.principal, QR_CODES.create),
    canChange: mayRun(who.principal, QR_CODES.change),
    creating: view.creating ?? { values: {}, errors: {} },
    saved: view.saved,
  });
}

const list = '/b/:business_id/qr-codes';
const one = `${list}/:id`;

const again = ({ services, req, res, who }: PageCall, { status, values, errors }: Refused) =>
  show(services, req, res, who, { status, creating: { values, errors } });

export const QR_FORMS: FormAction[] = [
  {
    path: list,
    runs: QR_CODES.create,
    body: (fields) => ({ label: fields.label ?? '', location_id: fields.location_id || null }),
    labels: LABELS,
    done: ({ who }) => `${listOf(who)}?saved=created`,
    again,
  },
  ...(['deactivate', 'activate'] as const).map((verb): FormAction => ({
    path: `${one}/${verb}`,
    runs: QR_CODES.change,
    body: () => ({ active: verb === 'activate' }),
    labels: LABELS,
    done: ({ who }) => `${listOf(who)}?saved=${verb}d`,
  })),
];

export function qrCodePages(services: Services): Router {
  const router = Router();
  router.get(list, requireMember(services), async (req, res) => {
    const saved = typeof req.query.saved === 'string' && SAVED.has(req.query.saved) ? req.query.saved : undefined;
    await show(services, req, res, memberOf(res), { saved: saved && t(`qr.saved.${saved}`) });
  });
  for (const action of QR_FORMS) mountForm(router, services, action);

  const codeOf = async (req: Request, res: Response) => {
    const params = { id: idParam(req.params.id, 'QR code') };
    return replyBody<QrCode>(await QR_CODES.get.invoke(services, memberOf(res).principal, { params }));
  };

  for (const format of ['png', 'svg'] as const) {
    router.get(`${one}/code.${format}`, requireMember(services), async (req, res) => {
      const qr = await codeOf(req, res);
      const size = String(format === 'png' ? PNG_SIZE : SVG_SIZE);
      const image = await QR_CODES.image.invoke(services, memberOf(res).principal, {
        params: { id: qr.id },
        query: { format, size },
      });
      if (image.kind !== 'media') throw new Error('The QR code image operation answered no image');
      if (req.query.download === '1') res.attachment(`qr-${qr.code}.${format}`);
      res.type(image.contentType).send(image.body);
    });
  }

  router.get(`${one}/print`, requireMember(services), async (req, res) => {
    const qr = await codeOf(req, res);
    sendView(res, 200, 'qr-print', {
      ...memberFrame(memberOf(res), t('qr.print.title', { label: qr.label }), 'qr-codes'),
      qr: { id: qr.id, label: qr.label, url: qr.url, active: qr.active },
    });
  });

  return router;
}
