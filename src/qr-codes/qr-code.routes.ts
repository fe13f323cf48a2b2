import { Router } from 'express';
import type pg from 'pg';
import { principalOf } from '../http/auth.js';
import { permit } from '../http/authorize.js';
import { idParam, offsetEnvelope } from '../http/params.js';
import { parseBody, parseQuery } from '../http/validation.js';
import { toQrCodeResponse } from './qr-code.presenter.js';
import { createQrCodeBody, listQrCodesQuery, qrImageQuery, updateQrCodeBody } from './qr-code.schemas.js';
import {
  changeQrCode,
  createQrCode,
  getQrCode,
  listQrCodes,
  qrCodeUrl,
  removeQrCode,
  renderQrCode,
} from './qr-code.service.js';

/** /businesses/:business_id/qr-codes: codes that lead customers to the feedback page. */
export function qrCodeRoutes(pool: pg.Pool, publicBaseUrl: string): Router {
  const router = Router({ mergeParams: true });
  const present = (row: Parameters<typeof toQrCodeResponse>[0]) => toQrCodeResponse(row, publicBaseUrl);

  router.get('/qr-codes', async (req, res) => {
    const { businessId } = principalOf(req);
    const { limit, offset, order, active } = parseQuery(listQrCodesQuery, req.query);
    const result = await listQrCodes(pool, businessId, { active }, { sort: 'created_at', order, limit, offset });
    res.json(offsetEnvelope(result.rows.map(present), result.total, limit, offset));
  });

  router.get('/qr-codes/:id', async (req, res) => {
    const { businessId } = principalOf(req);
    res.json(present(await getQrCode(pool, businessId, idParam(req.params.id, 'QR code'))));
  });

  router.get('/qr-codes/:id/image', async (req, res) => {
    const { businessId } = principalOf(req);
    const qr = await getQrCode(pool, businessId, idParam(req.params.id, 'QR code'));
    const { format, size } = parseQuery(qrImageQuery, req.query);
    const image = await renderQrCode(qrCodeUrl(publicBaseUrl, qr.code), format, size);
    res.type(format === 'svg' ? 'image/svg+xml' : 'image/png').send(image);
  });

  router.post('/qr-codes', permit('write'), async (req, res) => {
    const qr = await createQrCode(pool, principalOf(req), parseBody(createQrCodeBody, req.body));
    res.status(201).location(`${req.baseUrl}/qr-codes/${qr.id}`).json(present(qr));
  });

  router.patch('/qr-codes/:id', permit('write'), async (req, res) => {
    const id = idParam(req.params.id, 'QR code');
    res.json(present(await changeQrCode(pool, principalOf(req), id, parseBody(updateQrCodeBody, req.body))));
  });

  router.delete('/qr-codes/:id', permit('write'), async (req, res) => {
    await removeQrCode(pool, principalOf(req), idParam(req.params.id, 'QR code'));
    res.status(204).end();
  });

  return router;
}
