import { describe, expect, it } from 'vitest';
import { isCommonPassword, newPassword } from './password-policy.js';

describe('password policy', () => {
  it.each([
    ['too short', 'short pass1'],
    ['too long', 'x'.repeat(257)],
    ['common', 'password1234'],
    ['common in another case', 'QwertyuiopASDFGHJKL'],
  ])('When a new password is %s, then it is refused', (_label, password) => {
    expect(newPassword.safeParse(password).success).toBe(false);
  });

  it.each([
    ['12 characters', 'tram 7 lemon'],
    ['256 characters', 'y'.repeat(256)],
    ['spaces and any characters', 'ünïcödé pässwörd ☕'],
  ])('When a new password is %s and uncommon, then it is accepted', (_label, password) => {
    expect(newPassword.safeParse(password).success).toBe(true);
  });

  it('When the list is read, then it holds only passwords the length rule would let through', () => {
    expect(isCommonPassword('passwordpassword')).toBe(true);
    expect(isCommonPassword('password')).toBe(false); // too short to be on the list: the length rule refuses it
  });
});
