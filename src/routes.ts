import { readFileSync } from 'node:fs';
import { accountFeature } from './accounts/account.routes.js';
import { analyticsFeature } from './analytics/analytics.routes.js';
import { apiKeyFeature } from './api-keys/api-key.routes.js';
import { businessFeature } from './businesses/business.routes.js';
import { changelogFeature } from './changelog/changelog.routes.js';
import { commentFeature } from './comments/comment.routes.js';
import { eventFeature } from './feed/event.routes.js';
import { followFeature } from './follows/follow.routes.js';
import { webhookFeature } from './webhooks/webhook.routes.js';
import { exportFeature } from './exports/export.routes.js';
import { importFeature } from './imports/import.routes.js';
import type { Feature, Route } from './http/route.js';
import { issueBusinessRoutes, issueV1Routes } from './issues/issue.routes.js';
import { locationFeature } from './locations/location.routes.js';
import { mergeBusinessRoutes, mergeV1Routes } from './merges/merge.routes.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi/document.js';
import { documentFeature } from './openapi/document.routes.js';
import { publicPageFeature } from './public-page/page.routes.js';
import { qrCodeFeature } from './qr-codes/qr-code.routes.js';
import { roadmapFeature } from './roadmap/roadmap.routes.js';
import { healthFeature } from './health/health.routes.js';
import { setupFeature } from './setup/setup.routes.js';
import { sessionFeature } from './sessions/session.routes.js';
import { profileFeature } from './profile/profile.routes.js';
import { suggestionBusinessRoutes, suggestionV1Routes } from './suggestions/suggestion.routes.js';
import { tagFeature } from './tags/tag.routes.js';
import { teamFeature } from './team/team.routes.js';
import { voteFeature } from './votes/vote.routes.js';

/**
 * Every route of the service, declared once each, in the order the reference shows them: app.ts
 * registers exactly these, and the OpenAPI document describes exactly these. A new feature goes here.
 */
export const FEATURES: Feature[] = [
  suggestionV1Routes,
  suggestionBusinessRoutes,
  mergeV1Routes,
  mergeBusinessRoutes,
  issueV1Routes,
  issueBusinessRoutes,
  commentFeature,
  voteFeature,
  followFeature,
  publicPageFeature,
  roadmapFeature,
  exportFeature,
  importFeature,
  businessFeature,
  locationFeature,
  tagFeature,
  changelogFeature,
  qrCodeFeature,
  teamFeature,
  apiKeyFeature,
  analyticsFeature,
  sessionFeature,
  setupFeature,
  profileFeature,
  accountFeature,
  eventFeature,
  webhookFeature,
  healthFeature,
  documentFeature,
];

export const ROUTES: Route[] = FEATURES.flatMap((feature) => feature.routes);

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const built = new Map<number, OpenApiDocument>();

/** The document for a rate limit (its only setting), built once per process and value. */
export function apiDocument(rateLimitPerMinute = 60): OpenApiDocument {
  let document = built.get(rateLimitPerMinute);
  if (!document) {
    document = buildOpenApiDocument(FEATURES, { version, rateLimitPerMinute });
    built.set(rateLimitPerMinute, document);
  }
  return document;
}
