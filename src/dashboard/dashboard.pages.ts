import { Router, type RequestHandler } from 'express';
import { serviceUnavailable } from '../errors/http-error.js';
import { pagePolicy } from '../http/pages.js';
import type { Services } from '../http/route.js';
import { t } from '../shared/messages.js';
import { analyticsPages } from './dashboard.analytics.js';
import { CHANGELOG_FORMS, changelogPages } from './dashboard.changelog.js';
import { pageBudget, type PageBudget } from './dashboard.budget.js';
import { dashboardErrors, dashboardNotFound } from './dashboard.errors.js';
import { homePages } from './dashboard.home.js';
import { IMPORT_FORMS, importPages } from './dashboard.import.js';
import { INBOX_FORMS } from './dashboard.inbox.js';
import { KEY_FORMS, integrationPages } from './dashboard.integrations.js';
import { invitePages } from './dashboard.invite.js';
import { ISSUE_FORMS, issuePages } from './dashboard.issues.js';
import { profilePages } from './dashboard.profile.js';
import { QR_FORMS, qrCodePages } from './dashboard.qr-codes.js';
import { SETTINGS_FORMS, settingsPages } from './dashboard.settings.js';
import { ROADMAP_FORMS, roadmapSettingsPages } from './dashboard.roadmap.js';
import { BRAND_FORMS, brandSettingsPages } from './dashboard.brand.js';
import { setupPages } from './dashboard.setup.js';
import { signUpPages } from './dashboard.sign-up.js';
import { signInPages } from './dashboard.sign-in.js';
import { SUGGESTION_FORMS, suggestionPages } from './dashboard.suggestion.js';
import { TAG_FORMS, tagPages } from './dashboard.tags.js';
import { teamPages } from './dashboard.team.js';
import { DASHBOARD_ASSETS } from './dashboard.views.js';
import { WEBHOOK_FORMS, webhookPages } from './dashboard.webhooks.js';
import type { FormAction } from './dashboard.actions.js';

/**
 * The dashboard's forms that run a declared operation (dashboard.actions.ts): the page table the tests
 * hold against the route table.
 */
export const DASHBOARD_FORMS: readonly FormAction[] = [
  ...INBOX_FORMS,
  ...SUGGESTION_FORMS,
  ...TAG_FORMS,
  ...ISSUE_FORMS,
  ...QR_FORMS,
  ...SETTINGS_FORMS,
  ...WEBHOOK_FORMS,
  ...KEY_FORMS,
  ...ROADMAP_FORMS,
  ...BRAND_FORMS,
  ...CHANGELOG_FORMS,
  ...IMPORT_FORMS,
];

/** The dashboard's pages load nothing by default: each kind of resource is allowed by name. */
const policy = pagePolicy("'none'");

/**
 * What the dashboard needs of the rate limiters: the address's failure budget, held by credential
 * posts, and what every signed-in page spends (dashboard.budget.ts).
 */
export interface DashboardLimits extends PageBudget {
  holdWhileInFlight: RequestHandler;
}

/**
 * The team's dashboard, mounted at `/app`: server-rendered pages that call the same services and the
 * same authorize() as the JSON routes, with a session in an HttpOnly cookie and forms protected
 * against cross-site posts (docs/dashboard.md). Pages, not API operations: like /docs and the public
 * page they are not in the OpenAPI document.
 */
export function dashboardPages(services: Services, limits: DashboardLimits): Router {
  const router = Router();
  for (const { path, body, type } of DASHBOARD_ASSETS) {
    router.get(path, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=31536000, immutable').type(type).send(body);
    });
  }
  router.use(policy);
  // Mounted before the app's own readiness check, so that a page says "starting" as a page too.
  router.use((_req, _res, next) => {
    if (!services.isReady()) throw serviceUnavailable(t('app.starting'));
    next();
  });
  // Every refusal below is a page; a signed-in page spends its user's budget and its business's share.
  router.use(pageBudget(limits));
  // The forms that carry a credential hold a place in the address's failure budget.
  const holdWhileInFlight = limits.holdWhileInFlight;
  router.use(setupPages(services, holdWhileInFlight));
  router.use(signUpPages(services, holdWhileInFlight));
  router.use(signInPages(services, holdWhileInFlight));
  router.use(invitePages(services, holdWhileInFlight));
  router.use(profilePages(services, holdWhileInFlight));
  router.use(homePages(services));
  router.use(suggestionPages(services));
  router.use(issuePages(services));
  router.use(changelogPages(services));
  router.use(qrCodePages(services));
  router.use(analyticsPages(services));
  router.use(settingsPages(services));
  router.use(tagPages(services));
  router.use(importPages(services));
  router.use(roadmapSettingsPages(services));
  router.use(brandSettingsPages(services));
  router.use(integrationPages(services));
  router.use(teamPages(services));
  router.use(webhookPages(services));
  router.use(dashboardNotFound);
  router.use(dashboardErrors);
  return router;
}
