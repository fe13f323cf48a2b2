import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every key starts with this, so a leaked key is recognisable by secret scanners. */
export const KEY_PREFIX = 'fbk_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32; // 32 base62 characters: about 190 bits
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32, so any CRC32 fits
const DISPLAY_LENGTH = 8;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}}$`);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = ALPHABET[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

const checksum = (secret: string) => base62(crc32(secret), CHECKSUM_LENGTH);

export interface GeneratedKey {
  key: string;
  prefix: string;
  digest: Buffer;
}

/** GitHub-style token: prefix, random secret, checksum of the secret. */
export function generateApiKey(): GeneratedKey {
  const secret = randomBase62(SECRET_LENGTH);
  const key = `${KEY_PREFIX}${secret}${checksum(secret)}`;
  return { key, prefix: displayPrefix(key), digest: digestKey(key) };
}

/** Shape and checksum: a mistyped or invented key is refused without a database round trip. */
export function isWellFormedKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false;
  const body = candidate.slice(KEY_PREFIX.length);
  return checksum(body.slice(0, SECRET_LENGTH)) === body.slice(SECRET_LENGTH);
}

/** A 190-bit random secret needs no slow hash: SHA-256 is enough and keeps lookups cheap. */
export function digestKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + DISPLAY_LENGTH);
}
