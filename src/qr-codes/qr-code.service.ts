import type pg from 'pg';
import QRCode from 'qrcode';
import { recordActivity } from '../outbox/outbox.service.js';
import { withTransaction } from '../db/database.js';
import type { PageRequest } from '../db/paging.js';
import type { Principal } from '../auth/principal.js';
import { invalidField, notFound } from '../errors/http-error.js';
import { locationExists } from '../locations/location.repository.js';
import { newId } from '../shared/ids.js';
import { fieldChanges } from '../shared/changes.js';
import { randomBase62 } from '../shared/random.js';
import { qrCodeUrl, toQrCodeResponse } from './qr-code.presenter.js';
import {
  deleteQrCode,
  findQrCodePage,
  insertQrCode,
  QR_CODES,
  updateQrCode,
  type QrCodeRow,
} from './qr-code.repository.js';
import type { CreateQrCodeBody, UpdateQrCodeBody } from './qr-code.schemas.js';

/** 10 base62 characters: short enough to print, about 60 bits so codes cannot be enumerated. */
const CODE_LENGTH = 10;

export const listQrCodes = (
  pool: pg.Pool,
  businessId: string,
  filter: { active?: boolean },
  page: PageRequest<'created_at'>,
) => findQrCodePage(pool, businessId, filter, page);

export const getQrCode = (pool: pg.Pool, businessId: string, id: string): Promise<QrCodeRow> =>
  QR_CODES.get(pool, businessId, id);

/** `publicBaseUrl`: for the code's URL in the event it publishes, as its read shows it. */
export async function createQrCode(
  pool: pg.Pool,
  principal: Principal,
  input: CreateQrCodeBody,
  publicBaseUrl: string,
): Promise<QrCodeRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    if (input.location_id && !(await locationExists(tx, businessId, input.location_id))) {
      throw invalidField('location_id', 'unknown_location', 'not a location of this business');
    }
    const row = await insertQrCode(tx, businessId, {
      id: newId(),
      code: randomBase62(CODE_LENGTH),
      label: input.label,
      locationId: input.location_id ?? null,
      active: input.active,
    });
    await recordActivity(tx, principal, {
      type: 'qr_code.created',
      entityType: 'qr_code',
      entityId: row.id,
      data: { label: row.label },
      publish: { object: toQrCodeResponse(row, publicBaseUrl) },
    });
    return row;
  });
}

export async function changeQrCode(
  pool: pg.Pool,
  principal: Principal,
  id: string,
  changes: UpdateQrCodeBody,
  publicBaseUrl: string,
): Promise<QrCodeRow> {
  const { businessId } = principal;
  return withTransaction(pool, async (tx) => {
    const before = await QR_CODES.find(tx, businessId, id, { forUpdate: true });
    if (!before) throw notFound('QR code');
    const row = (await updateQrCode(tx, businessId, id, changes))!;
    const snapshot = (qr: QrCodeRow) => ({ label: qr.label, active: qr.active });
    await recordActivity(tx, principal, {
      type: 'qr_code.updated',
      entityType: 'qr_code',
      entityId: id,
      data: { ...changes },
      publish: { object: toQrCodeResponse(row, publicBaseUrl), changes: fieldChanges(snapshot(before), snapshot(row)) },
    });
    return row;
  });
}

export async function removeQrCode(pool: pg.Pool, principal: Principal, id: string, publicBaseUrl: string) {
  const { businessId } = principal;
  await withTransaction(pool, async (tx) => {
    const deleted = await deleteQrCode(tx, businessId, id);
    if (!deleted) throw notFound('QR code');
    await recordActivity(tx, principal, {
      type: 'qr_code.deleted',
      entityType: 'qr_code',
      entityId: id,
      // The code as it was: its last read.
      publish: { object: toQrCodeResponse(deleted, publicBaseUrl) },
    });
  });
}

export { qrCodeUrl };

export async function renderQrCode(url: string, format: 'svg' | 'png', size: number): Promise<string | Buffer> {
  const options = { width: size, margin: 2, errorCorrectionLevel: 'M' as const };
  return format === 'svg' ? QRCode.toString(url, { ...options, type: 'svg' }) : QRCode.toBuffer(url, options);
}
