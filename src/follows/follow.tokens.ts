import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a link does: confirm the follow, or unsubscribe. A link made for one never does the other. */
export type LinkPurpose = 'confirm' | 'unsubscribe';

/** A new follow's own signing key. */
export const newLinkKey = (): Buffer => randomBytes(32);

const mac = (key: Buffer, purpose: LinkPurpose, id: string) =>
  createHmac('sha256', key).update(`${purpose}:${id}`).digest('base64url');

/** `<follow id>.<HMAC-SHA256 of purpose and id under the follow's key>`: nothing in it needs escaping in a URL. */
export const signLink = (follow: { id: string; link_key: Buffer }, purpose: LinkPurpose): string =>
  `${follow.id}.${mac(follow.link_key, purpose, follow.id)}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The follow id a token names, before its signature is checked; null when it is not shaped like one. */
export function linkId(token: unknown): string | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const id = token.split('.')[0]!.toLowerCase();
  return UUID.test(id) ? id : null;
}

/** Whether `token` is this follow's link for `purpose`, in constant time. */
export function linkValid(follow: { id: string; link_key: Buffer }, purpose: LinkPurpose, token: string): boolean {
  const expected = Buffer.from(signLink(follow, purpose));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
