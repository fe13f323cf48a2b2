import { createHash } from 'node:crypto';

/** Random secrets (API keys, session and invite tokens) are stored only as this digest. */
export const sha256 = (secret: string): Buffer => createHash('sha256').update(secret).digest();
