import { Router, type Request, type Response } from 'express';
import { analyticsOverview, type Overview } from '../analytics/analytics.service.js';
import { authorize } from '../auth/authorize.js';
import type { Services } from '../http/route.js';
import { ISSUE_STATUSES, SUGGESTION_STATUSES } from '../shared/schemas.js';
import { memberFrame, memberOf, requireMember, requireSession, signedInOf, userFrame } from './dashboard.access.js';
import { inboxPages, inboxView } from './dashboard.inbox.js';
import { BASE_PATH } from './dashboard.session.js';
import { sendView, type FieldErrors } from './dashboard.views.js';

const LABELS: Record<string, string> = {
  pending: 'Pending',
  reviewing: 'Reviewing',
  in_progress: 'In progress',
  completed: 'Completed',
  rejected: 'Rejected',
  open: 'Open',
  assigned: 'Assigned',
  resolved: 'Resolved',
  closed: 'Closed',
};

/** Every status, zero when none has it, in the order of its life. */
function byStatus(statuses: readonly string[], rows: Overview['suggestions']) {
  const counts = statuses.map((status) => ({
    label: LABELS[status] ?? status,
    count: rows.find((row) => row.key === status)?.count ?? 0,
  }));
  return { total: counts.reduce((sum, row) => sum + row.count, 0), counts };
}

/** The overview the home page shows: the analytics overview's counts, as the JSON route computes them. */
function homeView(overview: Overview) {
  return {
    suggestions: byStatus(SUGGESTION_STATUSES, overview.suggestions),
    issues: byStatus(ISSUE_STATUSES, overview.issues),
    recent: [
      { label: 'Last 7 days', suggestions: overview.recentSuggestions[0] ?? 0, issues: overview.recentIssues[0] ?? 0 },
      { label: 'Last 30 days', suggestions: overview.recentSuggestions[1] ?? 0, issues: overview.recentIssues[1] ?? 0 },
    ],
    page: {
      scans: overview.page.reduce((sum, row) => sum + row.scans, 0),
      submissions: overview.page.reduce((sum, row) => sum + row.submissions, 0),
    },
  };
}

/** The dashboard's start (the business, or a choice of them) and each business's home. */
export function homePages(services: Services): Router {
  const router = Router();
  const pool = services.db.pool;

  const chooser = (res: Parameters<typeof signedInOf>[0]) => {
    const signedIn = signedInOf(res);
    sendView(res, 200, 'businesses', { ...userFrame(signedIn, 'Your businesses'), memberships: signedIn.memberships });
  };

  router.get('/', requireSession(pool), (_req, res) => {
    const { memberships } = signedInOf(res);
    if (memberships.length === 1) return res.redirect(303, `${BASE_PATH}/b/${memberships[0]!.business_id}`);
    chooser(res);
  });

  router.get('/businesses', requireSession(pool), (_req, res) => chooser(res));

  /** The home: the overview's counts, then the inbox. */
  const renderHome = async (req: Request, res: Response, status: number, bulkErrors: FieldErrors = {}) => {
    const member = memberOf(res);
    authorize(member.principal, 'read');
    const overview = await analyticsOverview(pool, member.principal.businessId);
    const inbox = await inboxView(services, member, req, bulkErrors);
    sendView(res, status === 200 ? inbox.status : status, 'home', {
      ...memberFrame(member, 'Home', 'home'),
      ...homeView(overview),
      inbox: inbox.inbox,
    });
  };

  router.get('/b/:business_id', requireMember(pool), (req, res) => renderHome(req, res, 200));
  router.use(inboxPages(services, renderHome));

  return router;
}
