import { Router, type Request, type Response } from 'express';
import { authorize, type Action } from '../auth/authorize.js';
import { HttpError } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { listLocations } from '../locations/location.service.js';
import { createQrCodeBody, listQrCodesQuery } from '../qr-codes/qr-code.schemas.js';
import {
  changeQrCode,
  createQrCode,
  getQrCode,
  listQrCodes,
  qrCodeUrl,
  renderQrCode,
} from '../qr-codes/qr-code.service.js';
import { allowed, memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields, parseForm } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

const SAVED: Record<string, string> = {
  created: 'The QR code is created.',
  deactivated: 'The QR code is deactivated: scanning it no longer opens the feedback page.',
  activated: 'The QR code is active again.',
};

/** The image sizes the downloads use: a PNG large enough to print, an SVG that scales. */
const PNG_SIZE = 1024;
const SVG_SIZE = 256;
const LOCATIONS_OFFERED = 100;

interface QrView {
  status?: number;
  creating?: { values: Record<string, string>; errors: FieldErrors };
  saved?: string;
}

/**
 * QR codes, through the JSON routes' services and actions: the list (`read`, with each code's scans
 * in the last 30 days), creating one (`write`), deactivating and activating (`write`, changeQrCode),
 * the PNG and SVG images (renderQrCode, as GET .../qr-codes/:id/image) and a print sheet.
 */
export function qrCodePages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;
  const list = '/b/:business_id/qr-codes';
  const one = `${list}/:qr_code_id`;
  const listOf = (who: SignedInMember) => `${BASE_PATH}/b/${who.principal.businessId}/qr-codes`;

  const allowedTo = (req: Request, res: Response, action: Action): SignedInMember => {
    const who = memberOf(res);
    authorize(who.principal, action);
    if (req.method === 'POST') assertFormPost(req, services, who.token);
    return who;
  };

  async function show(req: Request, res: Response, who: SignedInMember, view: QrView) {
    const { businessId } = who.principal;
    const parsed = listQrCodesQuery.safeParse({
      offset: typeof req.query.offset === 'string' ? req.query.offset : '0',
    });
    const { limit, offset, order } = parsed.success ? parsed.data : { limit: 50, offset: 0, order: 'desc' as const };
    const [codes, locations] = await Promise.all([
      listQrCodes(pool, businessId, {}, { sort: 'created_at', order, limit, offset }),
      listLocations(pool, businessId, { sort: 'name', order: 'asc', limit: LOCATIONS_OFFERED, offset: 0 }),
    ]);
    const names = new Map(locations.rows.map((l) => [l.id, l.name]));
    const base = `${listOf(who)}`;
    sendView(res, view.status ?? 200, 'qr-codes', {
      ...memberFrame(who, 'QR codes', 'qr-codes'),
      codes: codes.rows.map((qr) => ({
        id: qr.id,
        label: qr.label,
        url: qrCodeUrl(services.publicBaseUrl, qr.code),
        location: qr.location_id ? (names.get(qr.location_id) ?? 'A location') : null,
        active: qr.active,
        scans: qr.scans_last_30_days,
        created: when(qr.created_at),
      })),
      total: codes.total,
      next: offset + limit < codes.total ? `${base}?offset=${offset + limit}` : undefined,
      previous: offset > 0 ? `${base}?offset=${Math.max(0, offset - limit)}` : undefined,
      locations: locations.rows.map((l) => ({ id: l.id, name: l.name })),
      canWrite: allowed(who.principal, 'write'),
      creating: view.creating ?? { values: {}, errors: {} },
      saved: view.saved,
    });
  }

  router.get(list, requireMember(services), async (req, res) => {
    const who = allowedTo(req, res, 'read');
    const saved = typeof req.query.saved === 'string' ? SAVED[req.query.saved] : undefined;
    await show(req, res, who, { saved });
  });

  router.post(list, requireMember(services), formBody, async (req, res) => {
    const who = allowedTo(req, res, 'write');
    const fields = formFields(req);
    const values = { label: fields.label ?? '', location_id: fields.location_id ?? '' };
    const form = parseForm(
      createQrCodeBody,
      { label: values.label, location_id: values.location_id || undefined },
      { label: 'The label', location_id: 'The location' },
    );
    if (!form.ok) return show(req, res, who, { status: 400, creating: { values, errors: form.errors } });
    try {
      await createQrCode(pool, who.principal, form.data, services.publicBaseUrl);
    } catch (err) {
      // The service refuses a location that is not the business's: that field's mistake.
      if (err instanceof HttpError && err.statusCode === 400) {
        return show(req, res, who, { status: 400, creating: { values, errors: { location_id: err.message } } });
      }
      throw err;
    }
    res.redirect(303, `${listOf(who)}?saved=created`);
  });

  for (const [verb, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    router.post(`${one}/${verb}`, requireMember(services), formBody, async (req, res) => {
      const who = allowedTo(req, res, 'write');
      await changeQrCode(
        pool,
        who.principal,
        idParam(req.params.qr_code_id, 'QR code'),
        { active },
        services.publicBaseUrl,
      );
      res.redirect(303, `${listOf(who)}?saved=${verb}d`);
    });
  }

  for (const format of ['png', 'svg'] as const) {
    router.get(`${one}/code.${format}`, requireMember(services), async (req, res) => {
      const who = allowedTo(req, res, 'read');
      const qr = await getQrCode(pool, who.principal.businessId, idParam(req.params.qr_code_id, 'QR code'));
      const image = await renderQrCode(
        qrCodeUrl(services.publicBaseUrl, qr.code),
        format,
        format === 'png' ? PNG_SIZE : SVG_SIZE,
      );
      if (req.query.download === '1') res.attachment(`qr-${qr.code}.${format}`);
      res.type(format === 'svg' ? 'image/svg+xml' : 'image/png').send(image);
    });
  }

  router.get(`${one}/print`, requireMember(services), async (req, res) => {
    const who = allowedTo(req, res, 'read');
    const qr = await getQrCode(pool, who.principal.businessId, idParam(req.params.qr_code_id, 'QR code'));
    sendView(res, 200, 'qr-print', {
      ...memberFrame(who, `Print: ${qr.label}`, 'qr-codes'),
      qr: { id: qr.id, label: qr.label, url: qrCodeUrl(services.publicBaseUrl, qr.code), active: qr.active },
    });
  });

  return router;
}
