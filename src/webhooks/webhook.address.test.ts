import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedAddress, refusedHost } from './webhook.address.js';
import { postWebhook } from './webhook.sender.js';
import { JITTER, nextAttemptDelay, RETRY_SCHEDULE_MS } from './webhook.worker.js';

describe('refusedAddress', () => {
  it('When an address is loopback, private, link-local, multicast or unspecified, then it is refused', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.3.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:10.0.0.1',
    ]) {
      expect(refusedAddress(address), address).not.toBeNull();
    }
  });

  it('When an IPv6 address carries a loopback or private IPv4 address, then it is refused, in every form', () => {
    for (const [address, form] of [
      ['::127.0.0.1', 'IPv4-compatible, dotted'],
      ['::7f00:1', 'IPv4-compatible, as a URL writes it'],
      ['::10.0.0.1', 'IPv4-compatible, private'],
      ['::ffff:7f00:1', 'IPv4-mapped, in hex'],
      ['::ffff:0:7f00:1', 'IPv4-translated'],
      ['::ffff:0:127.0.0.1', 'IPv4-translated, dotted'],
      ['64:ff9b::7f00:1', 'NAT64 well-known prefix'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 well-known prefix, link-local'],
      ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix'],
      ['64:ff9b:1:7f00:1::', 'NAT64 local-use prefix, /48 layout'],
      ['2002:7f00:1::', '6to4'],
      ['2002:a00:1::1', '6to4, private'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1 obfuscated'],
      ['2001:0:7f00:1::', 'Teredo, server 127.0.0.1'],
      ['::5efe:7f00:1', 'ISATAP'],
      ['::200:5efe:a00:1', 'ISATAP, global bit'],
      ['2606:4700::5efe:7f00:1', 'ISATAP behind a public prefix'],
      ['2606:4700::200:5efe:c0a8:101', 'ISATAP behind a public prefix, private'],
    ]) {
      expect(refusedAddress(address!), `${address} (${form})`).not.toBeNull();
    }
  });

  it('When an address in a webhook URL is an IPv6 literal carrying a loopback address, then its host is refused', () => {
    for (const url of ['http://[::127.0.0.1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[::5efe:127.0.0.1]/']) {
      expect(refusedHost(new URL(url)), url).not.toBeNull();
    }
  });

  it('When an address is public unicast, then it is allowed', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '2606:4700::5efe:808:808',
    ]) {
      expect(refusedAddress(address), address).toBeNull();
    }
  });
});

describe('postWebhook without private networks', () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.writeHead(204).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const send = (url: string, allowPrivateNetworks = false) =>
    postWebhook(url, {}, '{}', { allowPrivateNetworks, timeoutMs: 5_000 }, new Date());

  it('When the URL names a loopback address, or a host name resolving to one, then nothing is sent', async () => {
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://169.254.169.254/latest/meta-data`,
      `http://0.0.0.0:${port}/`,
    ]) {
      const outcome = await send(url);
      expect(outcome.status, url).toBeNull();
      // Owners read it: the kind of refusal, not what the host resolved to.
      expect(outcome.error, url).toBe('no public address: the host is unknown or not a public one');
      expect(outcome.detail, url).toMatch(/^refused: .* is a \w+ address$/);
    }
    expect(hits).toBe(0);
  });

  it('When the URL is not http or https, then it is refused', async () => {
    expect((await send('file:///etc/passwd')).error).toMatch(/^refused: file:/);
  });

  it('When the receiver does not answer in time, then the attempt fails as a timeout', async () => {
    const silent = http.createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/`;
      const outcome = await postWebhook(url, {}, '{}', { allowPrivateNetworks: true, timeoutMs: 100 }, new Date());
      expect(outcome).toMatchObject({ status: null, error: 'timed out: no response within 100 ms' });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('When private networks are allowed, then the same loopback receiver gets it', async () => {
    expect((await send(`http://localhost:${port}/`, true)).status).toBe(204);
    expect(hits).toBe(1);
  });
});

describe('nextAttemptDelay', () => {
  it('When jitter is drawn, then each wait stays within its step of the schedule plus 10%', () => {
    for (const [index, wait] of RETRY_SCHEDULE_MS.entries()) {
      expect(nextAttemptDelay(index + 1, null, 0)).toBe(wait);
      expect(nextAttemptDelay(index + 1, null, 0.999)).toBeLessThanOrEqual(wait * (1 + JITTER));
    }
    expect(nextAttemptDelay(RETRY_SCHEDULE_MS.length + 1, null, 0)).toBeNull();
  });

  it('When Retry-After asks for longer than the schedule, then it wins; when shorter, the schedule does', () => {
    expect(nextAttemptDelay(1, 600, 0)).toBe(600_000);
    expect(nextAttemptDelay(2, 1, 0)).toBe(RETRY_SCHEDULE_MS[1]);
  });
});
