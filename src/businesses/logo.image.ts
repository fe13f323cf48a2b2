import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { HttpError } from '../errors/http-error.js';
import type { LogoRow } from './logo.repository.js';

/** What a logo may be sent as. Never SVG: a script-bearing document is no image to serve from here. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 512 * 1024;
/** The stored logo fits this square (the page shows it at most 4rem high; 512 covers 3x screens). */
export const LOGO_MAX_SIDE = 512;
/**
 * Decoding stops past this many pixels: a 512 KB file can claim a huge canvas (a decompression bomb);
 * 24 MP is a 6000x4000 photograph.
 */
const MAX_INPUT_PIXELS = 24_000_000;

const refusedType = () =>
  new HttpError(415, 'The logo must be a PNG, JPEG or WebP image (not SVG)', 'UNSUPPORTED_MEDIA_TYPE', {}, [
    { field: 'logo', code: 'logo_type', message: 'must be a PNG, JPEG or WebP image' },
  ]);

export const tooLarge = () =>
  new HttpError(413, 'The logo exceeds 512 KB', 'PAYLOAD_TOO_LARGE', {}, [
    { field: 'logo', code: 'logo_too_large', message: 'must be at most 512 KB', params: { max: 512 } },
  ]);

/** What the bytes are, by their first bytes (the Content-Type is the sender's claim, not a proof). */
export function sniffImage(bytes: Buffer): (typeof LOGO_TYPES)[number] | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

export type PreparedLogo = LogoRow & { body: Buffer };

/**
 * Decodes the image and encodes it again, turned upright by its EXIF orientation, within 512x512,
 * with no metadata (sharp writes none unless asked: EXIF, GPS, ICC and XMP are all left behind). A
 * PNG stays a PNG (logos are flat colours, lossless keeps them sharp); a JPEG stays a JPEG; a WebP
 * becomes a PNG when it has transparency, else a JPEG, since mail clients (Outlook) show no WebP.
 */
export async function prepareLogo(bytes: Buffer): Promise<PreparedLogo> {
  if (bytes.length > LOGO_MAX_BYTES) throw tooLarge();
  const type = sniffImage(bytes);
  if (!type) throw refusedType();
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const { hasAlpha } = await image.metadata();
    const png = type === 'image/png' || (type === 'image/webp' && hasAlpha);
    const resized = image.rotate().resize(LOGO_MAX_SIDE, LOGO_MAX_SIDE, { fit: 'inside', withoutEnlargement: true });
    const encoded = png
      ? resized.png({ compressionLevel: 9, palette: false })
      : resized.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      hash: createHash('sha256').update(data).digest('hex').slice(0, 16),
      content_type: png ? 'image/png' : 'image/jpeg',
      width: info.width,
      height: info.height,
      body: data,
    };
  } catch {
    throw new HttpError(422, 'The logo could not be decoded as an image', 'UNDECODABLE_IMAGE', {}, [
      { field: 'logo', code: 'logo_undecodable', message: 'could not be read as an image' },
    ]);
  }
}

export const logoExtension = (type: LogoRow['content_type']) => (type === 'image/png' ? 'png' : 'jpg');

/** Where a business's logo is served: its hash in the address, so it is cached for a year. */
export const logoPath = (businessId: string, logo: Pick<LogoRow, 'hash' | 'content_type'>) =>
  `/brand/${businessId}/logo.${logo.hash}.${logoExtension(logo.content_type)}`;
