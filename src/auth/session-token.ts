import { sha256 } from '../shared/digest.js';
import { randomToken } from '../shared/random.js';

/** Session tokens are told apart from API keys (`fbk_`) by their prefix. */
export const SESSION_PREFIX = 'fbs_';
const TOKEN_PATTERN = /^fbs_[A-Za-z0-9_-]{43}$/;

/** 256 random bits; the client holds the token, the database only its digest. */
export function generateSessionToken(): { token: string; digest: Buffer } {
  const token = randomToken(SESSION_PREFIX);
  return { token, digest: sha256(token) };
}

export const isWellFormedSessionToken = (candidate: string): boolean => TOKEN_PATTERN.test(candidate);
