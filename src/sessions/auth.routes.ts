import { Router } from 'express';
import type pg from 'pg';
import { z } from 'zod';
import { presentedCredential, resolveSessionUser } from '../http/auth.js';
import { unauthorized } from '../http/errors.js';
import { parseBody } from '../http/validation.js';
import { email } from '../shared/schemas.js';
import { findUserById } from '../users/user.repository.js';
import type { LoginThrottle } from './login-throttle.js';
import { findMemberships, revokeSession } from './session.repository.js';
import type { CurrentSession } from './session.responses.js';
import { login } from './session.service.js';

export const loginBody = z.strictObject({
  email,
  password: z.string().min(1).max(200),
});

/** Mounted at /auth: dashboard users sign in for a 12-hour Bearer session token. */
export function authRoutes(pool: pg.Pool, throttle: LoginThrottle): Router {
  const router = Router();

  async function currentSession(req: Parameters<Parameters<typeof router.get>[1]>[0]) {
    const token = presentedCredential(req);
    const session = token ? await resolveSessionUser(pool, token) : null;
    if (!session) throw unauthorized();
    return session;
  }

  router.post('/login', async (req, res) => {
    const { email: address, password } = parseBody(loginBody, req.body);
    res.json(await login(pool, throttle, address, password));
  });

  router.post('/logout', async (req, res) => {
    await revokeSession(pool, (await currentSession(req)).id);
    res.status(204).end();
  });

  router.get('/me', async (req, res) => {
    const session = await currentSession(req);
    const [user, memberships] = await Promise.all([
      findUserById(pool, session.user_id),
      findMemberships(pool, session.user_id),
    ]);
    res.json({
      user: { id: session.user_id, email: user?.email ?? null, name: user?.name ?? null },
      expires_at: session.expires_at.toISOString(),
      memberships,
    } satisfies CurrentSession);
  });

  return router;
}
