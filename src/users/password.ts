import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes): the OWASP-recommended profile. */
export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

export const verifyPassword = (hash: string, password: string): Promise<boolean> => argon2.verify(hash, password);
