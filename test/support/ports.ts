import net from 'node:net';

/** Below Linux's default ephemeral range (32768-60999), where outgoing connections take their ports. */
const FIXED_RANGE = { from: 20_000, to: 32_000 };

/**
 * Whether the port can be listened on now. `events.once(server, 'listening')` would reject on the
 * server's 'error' (EADDRINUSE) rather than let the race answer false, so the two are awaited as one.
 */
export async function bindable(port: number): Promise<boolean> {
  const server = net.createServer();
  const ok = await new Promise<boolean>((resolve) => {
    server.once('listening', () => resolve(true));
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1');
  });
  if (ok) await new Promise((resolve) => server.close(resolve));
  return ok;
}

/**
 * A loopback port nobody listens on now and that no outgoing connection will take meanwhile, for a
 * test that listens on it later, or again after a stop. A port the OS hands out for `listen(0)` is in
 * the ephemeral range: by the time the test listens on it again, a client socket (to PostgreSQL,
 * Redis, the app) may hold it, and the listen fails with EADDRINUSE.
 */
export async function reservablePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = FIXED_RANGE.from + Math.floor(Math.random() * (FIXED_RANGE.to - FIXED_RANGE.from));
    if (await bindable(port)) return port;
  }
  throw new Error('no free loopback port below the ephemeral range');
}
