import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Why an address may not receive webhooks, or null when it may: only public unicast addresses do.
 * Loopback, private, link-local (169.254.169.254, the cloud metadata service), multicast, unspecified
 * and the other special ranges are refused; an IPv4-mapped IPv6 address is judged as its IPv4 address.
 */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
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
