import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { createBusiness } from '../../src/businesses/business.service.js';
import type { Database } from '../../src/db/database.js';
import { hashPassword } from '../../src/users/password.js';
import { uniqueEmail } from './factories.js';

/** A password that passes the policy: long, and not a common one. */
export const PASSWORD = 'granite teapots hum at dawn';

/** The hashed password, made once per test file (argon2 is slow on purpose). */
let hashed: Promise<string> | undefined;
const passwordHash = () => (hashed ??= hashPassword(PASSWORD));

/** A business whose owner can sign in with PASSWORD, as a person would in the dashboard. */
export async function buildOwnerWithPassword(db: Database, overrides: { name?: string } = {}) {
  const email = uniqueEmail('owner');
  const { business, owner } = await createBusiness(db.pool, {
    name: overrides.name ?? `Business ${randomUUID().slice(0, 8)}`,
    plan: 'business',
    ownerEmail: email,
    ownerPasswordHash: await passwordHash(),
  });
  return { business, owner, email, password: PASSWORD };
}

/** The service's own origin as the test apps are configured (PUBLIC_BASE_URL's default): where its pages post from. */
const ORIGIN = 'http://localhost:3000';

/** Opens the page `from` and posts one of its forms to `action`, with the page's token, as a browser would. */
export async function postPageForm(
  agent: supertest.Agent,
  from: string,
  action: string,
  fields: Record<string, unknown> = {},
): Promise<supertest.Response> {
  const page = await agent.get(from);
  return agent
    .post(action)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ _csrf: formTokenIn(page.text), ...fields });
}

/** The form token a dashboard page put in its forms. */
export function formTokenIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form token in:\n${html.slice(0, 2000)}`);
  return match[1]!;
}

/** The `Set-Cookie` line that sets `name`. */
export function setCookie(res: supertest.Response, name: string): string | undefined {
  const lines = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return lines.find((line) => line.startsWith(`${name}=`));
}

/** The value a `Set-Cookie` line gives its cookie. */
export const cookieValue = (line: string | undefined): string =>
  line?.split(';')[0]?.split('=').slice(1).join('=') ?? '';

/**
 * Signs in through the page, as a browser does: the form (and its cookie), then the post from the
 * same origin. The agent keeps the session cookie; answers the post's response.
 */
export async function signInThroughPage(
  agent: supertest.Agent,
  origin: string,
  email: string,
  password: string,
  next?: string,
): Promise<supertest.Response> {
  const form = await agent.get(`/app/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  return agent
    .post('/app/sign-in')
    .set('Origin', origin)
    .type('form')
    .send({ _csrf: formTokenIn(form.text), email, password, next: next ?? '' });
}
