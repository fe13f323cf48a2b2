import { Router, type Request, type Response } from 'express';
import { authorize } from '../auth/authorize.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { memberFrame, memberOf, requireMember, requireSession, signedInOf, userFrame } from './dashboard.access.js';
import { inboxPages, inboxValues, inboxView } from './dashboard.inbox.js';
import { BASE_PATH } from './dashboard.session.js';
import { renderView, sendView, type FieldErrors } from './dashboard.views.js';

/** The dashboard's start (the business, or a choice of them) and each business's home. */
export function homePages(services: Services): Router {
  const router = Router();

  const chooser = (res: Parameters<typeof signedInOf>[0]) => {
    const signedIn = signedInOf(res);
    sendView(res, 200, 'businesses', {
      ...userFrame(signedIn, t('app.businesses.title')),
      memberships: signedIn.memberships,
    });
  };

  router.get('/', requireSession(services), (_req, res) => {
    const { memberships } = signedInOf(res);
    if (memberships.length === 1) return res.redirect(303, `${BASE_PATH}/b/${memberships[0]!.business_id}`);
    chooser(res);
  });

  router.get('/businesses', requireSession(services), (_req, res) => chooser(res));

  /**
   * The home is the inbox, read as the business list is: one statement for the session and the
   * page's frame, then the list's cache entry. The page as most views see it (no notice, no form
   * errors) is kept too, under the business's change number like the list (docs/caching.md), with
   * everything else it shows in its key: the session (whose form token it carries), the user, their
   * businesses, the business's settings and locations (read with the session on every request), the
   * filters and the minute (ages are shown to the minute). The overview's counts are on Analytics.
   */
  const renderHome = async (req: Request, res: Response, status: number, bulkErrors: FieldErrors = {}) => {
    const member = memberOf(res);
    authorize(member.principal, 'read');
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const shared = status === 200 && Object.keys(bulkErrors).length === 0 && req.query.saved === undefined;
    const key = `${member.principal.businessId} dashboard-home ${JSON.stringify([
      member.sessionId,
      member.principal.role,
      member.user,
      member.memberships,
      member.settings,
      inboxValues(req),
      minute,
    ])}`;
    const change = member.principal.changeNumber;
    let page = shared ? services.lists.get(key, change) : undefined;
    let pageStatus = 200;
    if (!page) {
      const inbox = await inboxView(services, member, req, bulkErrors, minute);
      pageStatus = status === 200 ? inbox.status : status;
      page = Buffer.from(
        renderView('home', { ...memberFrame(member, t('app.home.title'), 'home'), inbox: inbox.inbox }),
      );
      if (shared && pageStatus === 200) services.lists.set(key, change, page);
    }
    res.status(pageStatus).type('html').send(page);
  };

  router.get('/b/:business_id', requireMember(services), (req, res) => renderHome(req, res, 200));
  router.use(inboxPages(services, renderHome));

  return router;
}
