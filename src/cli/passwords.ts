import { replacePassword } from '../accounts/account.service.js';
import type { Database } from '../db/database.js';
import { newPassword } from '../users/password-policy.js';
import { findUserByEmail } from '../users/user.repository.js';
import { CliError } from './errors.js';
import { promptHidden } from './prompt.js';

/** Asks for a new password twice on the terminal, until it meets the policy (three tries). */
export async function askNewPassword(whose: string): Promise<string> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const password = await promptHidden(`Password for ${whose} (12 to 256 characters): `);
    const valid = newPassword.safeParse(password);
    if (!valid.success) {
      process.stderr.write(`${valid.error.issues[0]?.message ?? 'not accepted'}\n`);
      continue;
    }
    if ((await promptHidden('Again: ')) === password) return password;
    process.stderr.write('the two do not match\n');
  }
  throw new CliError('no password set: three attempts failed');
}

/**
 * A password given for an email that already has an account is never ignored silently: it is
 * refused, unless `--reset-password` says to replace that account's password. Answers the existing
 * user whose password is to be replaced, if any.
 */
export async function passwordTarget(
  db: Database,
  email: string,
  given: { password?: string; reset: boolean; flag: string },
): Promise<string | null> {
  if (given.reset && given.password === undefined) throw new CliError(`--reset-password needs ${given.flag}`);
  const existing = await findUserByEmail(db.pool, email);
  if (!existing || given.password === undefined) return null;
  if (!given.reset) {
    throw new CliError(
      `${email} already has an account, and its password stays as it is: leave out ${given.flag}, or add ` +
        '--reset-password to replace it (which signs that user out everywhere)',
    );
  }
  return existing.id;
}

export async function replaceUserPassword(db: Database, userId: string | null, password: string | undefined) {
  if (userId !== null && password !== undefined) await replacePassword(db.pool, userId, password);
}
