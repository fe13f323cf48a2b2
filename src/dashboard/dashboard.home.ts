import { Router } from 'express';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { requireMember, requireSession, signedInOf, userFrame } from './dashboard.access.js';
import { inboxPages, renderHome } from './dashboard.inbox.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView } from './dashboard.views.js';

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

  router.get('/b/:business_id', requireMember(services), (req, res) => renderHome(services, req, res, 200));
  router.use(inboxPages(services));

  return router;
}
