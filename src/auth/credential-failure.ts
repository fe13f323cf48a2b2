import { CredentialError } from '../errors/http-error.js';

/** Why a credential in a request body was refused: a client can tell a typo from an expired link. */
export type CredentialFailureCode =
  | 'UNAUTHORIZED'
  | 'INVALID_INVITE'
  | 'INVALID_RESET_TOKEN'
  | 'INVALID_CONFIRMATION_TOKEN'
  | 'INVALID_SIGNUP_TOKEN'
  | 'WRONG_PASSWORD';

/**
 * The one answer to a refused credential that a request carries in its body: a password at sign-in
 * or password change, an invite token, a password-reset token (wrong, unknown, expired or used).
 * It is a 401 and a CredentialError: the error handler counts it against the address's one failure
 * budget (countCredentialFailure in http/rate-limit.ts), so a guessed token costs what a guessed
 * password costs. Callers check the token before any argon2 work.
 */
export const credentialRefused = (message: string, code: CredentialFailureCode = 'UNAUTHORIZED'): CredentialError =>
  new CredentialError(401, message, code, { 'WWW-Authenticate': 'Bearer' });
