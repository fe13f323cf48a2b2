import type { Request, RequestHandler, Response } from 'express';
import type pg from 'pg';
import { mayDo, type Action } from '../auth/authorize.js';
import { liveBrowserSession } from '../auth/browser-session.js';
import { isWellFormedSessionToken } from '../auth/session-token.js';
import { sessionUsed } from '../auth/session-use.js';
import type { UserPrincipal } from '../auth/principal.js';
import type { Services } from '../http/route.js';
import { forbidden } from '../errors/http-error.js';
import type { MembershipSummaryRow } from '../sessions/session.repository.js';
import { sha256 } from '../shared/digest.js';
import { uuid } from '../shared/schemas.js';
import { chargePage, enterBusinessShare } from './dashboard.budget.js';
import { findMemberPage } from './dashboard.repository.js';
import { describeUser } from '../sessions/session.service.js';
import { formToken, readCookie, redirectToSignIn, SESSION_COOKIE } from './dashboard.session.js';
import type { Frame } from './dashboard.views.js';

/** A signed-in browser: its session, its user and the businesses they belong to. */
export interface SignedIn {
  sessionId: string;
  /** The session token, from the cookie: what the page's form token is derived from. */
  token: string;
  user: { id: string; name: string | null; email: string };
  memberships: MembershipSummaryRow[];
}

/** A signed-in member on a page of one business: what they may do is their principal's, via authorize(). */
export interface SignedInMember extends SignedIn {
  principal: UserPrincipal;
  business: MembershipSummaryRow;
  /** Read with the session (findMemberPage): whether reviews happen here, its locations and tags by name. */
  settings: { approvalRequired: boolean; locations: { id: string; name: string }[]; tags: string[] };
}

const notAMember = () => forbidden('You are not a member of this business', 'NO_BUSINESS_ACCESS');

/** Every action a page may offer; the layout and the pages show only what authorize() allows. */
const OFFERED: Action[] = [
  'write',
  'manage_team',
  'manage_owners',
  'manage_keys',
  'manage_webhooks',
  'manage_business',
  'leave',
];

/** Whether the principal may do `action`: authorize()'s own rules, so no page keeps rules of its own. */
export const allowed = (principal: UserPrincipal, action: Action): boolean => mayDo(principal, action);

/** A session's user and memberships, once the session is known to be live. */
export async function describeSignedIn(
  pool: pg.Pool,
  sessionId: string,
  userId: string,
  token: string,
): Promise<SignedIn | null> {
  const { user, memberships } = await describeUser(pool, userId);
  if (!user) return null;
  return { sessionId, token, user: { id: user.id, name: user.name, email: user.email }, memberships };
}

export const signedInOf = (res: Response): SignedIn => res.locals.signedIn as SignedIn;
export const memberOf = (res: Response): SignedInMember => res.locals.member as SignedInMember;

/** The browser's live session, if it has one; nothing is refused here. */
export async function currentSession(pool: pg.Pool, req: Request): Promise<SignedIn | null> {
  const token = readCookie(req, SESSION_COOKIE);
  const session = await liveBrowserSession(pool, token);
  return session ? describeSignedIn(pool, session.id, session.user_id, token!) : null;
}

/** Pages for a signed-in user, charged to them: without a live session, to sign in and back. */
export function requireSession({ db }: Pick<Services, 'db'>): RequestHandler {
  const { pool } = db;
  return async (req, res, next) => {
    const signedIn = await currentSession(pool, req);
    if (!signedIn) return redirectToSignIn(req, res);
    await sessionUsed(pool, signedIn.sessionId, req);
    await chargePage(req, res, signedIn.user.id);
    res.locals.signedIn = signedIn;
    next();
  };
}

/**
 * Pages of one business (`/b/:business_id`): a live session of one of its members, as businessAuth
 * admits a Bearer session. Another business's pages are a 403, like its JSON routes, charged to the
 * user like them; a member's page then waits for a place in the business's share of the instance.
 */
export function requireMember({ db }: Pick<Services, 'db'>): RequestHandler {
  // The session is the page's own: read where the JSON routes' businessAuth reads it.
  const { pool } = db;
  return async (req, res, next) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (!token || !isWellFormedSessionToken(token)) return redirectToSignIn(req, res);
    const businessId = uuid.safeParse(req.params.business_id);
    if (!businessId.success) {
      // A malformed business id is no membership: still the sign-in page for a dead session.
      const live = await liveBrowserSession(pool, token);
      if (!live) return redirectToSignIn(req, res);
      await chargePage(req, res, live.user_id);
      throw notAMember();
    }
    const id = businessId.data.toLowerCase();
    const row = await findMemberPage(pool, sha256(token), id);
    if (!row?.user) return redirectToSignIn(req, res);
    await sessionUsed(pool, row.session_id, req);
    await chargePage(req, res, row.user_id);
    const business = row.memberships.find((m) => m.business_id === id);
    if (!row.role || !business) throw notAMember();
    const signedIn: SignedIn = {
      sessionId: row.session_id,
      token,
      user: { id: row.user_id, name: row.user.name, email: row.user.email },
      memberships: row.memberships,
    };
    const principal: UserPrincipal = {
      kind: 'user',
      businessId: id,
      role: row.role,
      userId: row.user_id,
      sessionId: row.session_id,
      changeNumber: row.change_number,
    };
    res.locals.signedIn = signedIn;
    res.locals.member = {
      ...signedIn,
      principal,
      business,
      settings: { approvalRequired: row.approval_required, locations: row.locations, tags: row.tags },
    } satisfies SignedInMember;
    enterBusinessShare(res, id, next);
  };
}

/** The layout's frame for a signed-in user's page (outside any business). */
export function userFrame(signedIn: SignedIn, title: string): Frame {
  const csrf = formToken(signedIn.token);
  return {
    title,
    csrf,
    signOutCsrf: csrf,
    user: signedIn.user,
    businessCount: signedIn.memberships.length,
  };
}

/** The layout's frame for a page of the member's business, with what they may do there. */
export function memberFrame(member: SignedInMember, title: string, nav?: Frame['nav']): Frame {
  const can = Object.fromEntries(OFFERED.map((action) => [action, allowed(member.principal, action)]));
  return {
    ...userFrame(member, title),
    business: { id: member.business.business_id, name: member.business.business_name, role: member.principal.role },
    nav,
    can,
  };
}
