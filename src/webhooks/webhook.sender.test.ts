import { once } from 'node:events';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { RefusedAddressError } from './webhook.address.js';
import { failureOf, postWebhook } from './webhook.sender.js';

/** A name that exists inside and one that does not read the same: no map of internal names. */
const NO_PUBLIC_ADDRESS = 'no public address: the host is unknown or not a public one';

const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('failureOf', () => {
  it.each([
    [nodeError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.3.7:443'), 'connection refused'],
    [nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND hooks.internal.corp'), NO_PUBLIC_ADDRESS],
    [nodeError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN hooks.internal.corp'), NO_PUBLIC_ADDRESS],
    [nodeError('ETIMEDOUT', 'connect ETIMEDOUT 10.0.3.7:443'), 'timed out'],
    [nodeError('ECONNRESET', 'read ECONNRESET'), 'connection closed before the response'],
    [nodeError('EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.3.7:443'), 'host unreachable'],
    [nodeError('CERT_HAS_EXPIRED', 'certificate has expired'), 'TLS certificate not accepted'],
    [
      nodeError('ERR_TLS_CERT_ALTNAME_INVALID', "Host: a.example. is not in the cert's altnames"),
      'TLS certificate not accepted',
    ],
    [new RefusedAddressError('hooks.example resolves to 10.0.3.7 is a private address'), NO_PUBLIC_ADDRESS],
    [nodeError('EWHATEVER', 'something about 10.0.3.7'), 'connection failed'],
  ])('When Node reports %s, then the owner reads %j, without an address', (err, expected) => {
    expect(failureOf(err)).toBe(expected);
  });
});

describe('postWebhook errors', () => {
  it('When the connection is refused, then the error says so in general terms and the detail keeps the address', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await postWebhook(
      `http://127.0.0.1:${port}/`,
      {},
      '{}',
      { allowPrivateNetworks: true, timeoutMs: 5_000 },
      new Date(),
    );
    expect(outcome).toMatchObject({ status: null, error: 'connection refused' });
    expect(outcome.detail).toContain(`127.0.0.1:${port}`);
  });
});
