import { once } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { bindable, reservablePort } from './ports.js';

describe('reservable ports', () => {
  it('When a port is already listened on, then it is reported as not bindable rather than thrown on', async () => {
    const holder = net.createServer();
    holder.listen(await reservablePort(), '127.0.0.1');
    await once(holder, 'listening');
    try {
      const { port } = holder.address() as net.AddressInfo;
      expect(await bindable(port)).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('When a port is free, then it is bindable, and left free afterwards', async () => {
    const port = await reservablePort();
    expect(await bindable(port)).toBe(true);
    expect(await bindable(port)).toBe(true);
  });
});
