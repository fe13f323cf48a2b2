import { crc32 } from 'node:zlib';
import { sha256 } from '../shared/digest.js';
import { BASE62, randomBase62 } from '../shared/random.js';

/** Every key starts with this, so a leaked key is recognisable by secret scanners. */
export const KEY_PREFIX = 'fbk_';
const SECRET_LENGTH = 32; // 32 base62 characters: about 190 bits
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32, so any CRC32 fits
const DISPLAY_LENGTH = 8;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62]! + out;
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
export const digestKey = (key: string): Buffer => sha256(key);

export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + DISPLAY_LENGTH);
}
