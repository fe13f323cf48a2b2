import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * ipaddr.js reads `::a.b.c.d` as the IPv4-mapped `::ffff:a.b.c.d`; the network reads it as `::` and
 * 32 bits (IPv4-compatible). A dotted tail is written in hex first, so the address is judged as sent.
 */
function hexTail(address: string): string {
  const match = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (!match || !ipaddr.IPv4.isValidFourPartDecimal(match[2]!)) return address;
  const [a, b, c, d] = ipaddr.IPv4.parse(match[2]!).octets as [number, number, number, number];
  return `${match[1]!}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
const lastIPv4 = (parts: number[]) =>
  new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]);

const isIsatap = (parts: number[]) => (parts[4]! & 0xfcff) === 0 && parts[5] === 0x5efe;

/**
 * The IPv4 address a unicast IPv6 address hands packets on to, where ipaddr.js sees none: the
 * deprecated IPv4-compatible `::a.b.c.d` (::/96), and an ISATAP interface id (`…:0:5efe:a.b.c.d`, or
 * `200:5efe` and the other u/g bits) after any prefix.
 */
function embeddedIPv4(parts: number[]): ipaddr.IPv4 | null {
  if (parts.slice(0, 6).every((part) => part === 0) || isIsatap(parts)) return lastIPv4(parts);
  return null;
}

/**
 * Why an address may not receive webhooks, or null when it may: only public unicast addresses do.
 * Loopback, private, link-local (169.254.169.254, the cloud metadata service), multicast, unspecified
 * and the other special ranges are refused; an IPv4-mapped IPv6 address is judged as its IPv4 address.
 * No IPv6 form that carries an IPv4 address can reach a private one: the IPv4-translated
 * (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, and the local-use 64:ff9b:1::/48), 6to4 (2002::/16) and
 * Teredo (2001::/32) ranges are refused whatever they carry (ipaddr.js names them as special ranges),
 * the IPv4-compatible form (::/96, deprecated) always, and an ISATAP address unless it carries a
 * public one.
 */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(ipaddr.IPv6.isValid(address) ? hexTail(address) : address);
  const range = parsed.range();
  if (range !== 'unicast') return `${address} is a ${range} address`;
  if (parsed.kind() === 'ipv4') return null;
  const parts = (parsed as ipaddr.IPv6).parts;
  const embedded = embeddedIPv4(parts);
  if (!embedded) return null;
  const carried = embedded.range();
  if (carried === 'unicast' && isIsatap(parts)) return null;
  return carried === 'unicast'
    ? `${address} is an IPv4-compatible address (deprecated)`
    : `${address} carries ${embedded.toString()}, a ${carried} address`;
}

export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: the addresses a host name resolves to are checked when the connection
 * is made, so a name that resolved elsewhere when the endpoint was saved (DNS rebinding) cannot reach
 * an internal address. A literal IP in the URL never comes here: see refusedHost.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    for (const { address } of addresses) {
      const reason = refusedAddress(address);
      if (reason) return callback(new RefusedAddressError(`${hostname} resolves to ${reason}`), []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENODATA' }), []);
    callback(null, first.address, first.family);
  });
}

/** The reason a URL's host is refused outright (a literal private IP, which skips DNS), or null. */
export function refusedHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? refusedAddress(host) : null;
}
