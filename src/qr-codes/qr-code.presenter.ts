import type { QrCodeRow } from './qr-code.repository.js';
import type { QrCode } from './qr-code.responses.js';

/** The public feedback page a QR code points at. */
export const qrCodeUrl = (publicBaseUrl: string, code: string) => `${publicBaseUrl.replace(/\/+$/, '')}/f/${code}`;

export function toQrCodeResponse(qr: QrCodeRow, publicBaseUrl: string): QrCode {
  return {
    id: qr.id,
    label: qr.label,
    code: qr.code,
    url: qrCodeUrl(publicBaseUrl, qr.code),
    location_id: qr.location_id,
    active: qr.active,
    created_at: qr.created_at.toISOString(),
    updated_at: qr.updated_at.toISOString(),
    scans_last_30_days: qr.scans_last_30_days,
  };
}
