import { readFileSync } from 'node:fs';
import { analyticsDocs } from '../analytics/analytics.openapi.js';
import { apiKeyDocs } from '../api-keys/api-key.openapi.js';
import { commentDocs } from '../comments/comment.openapi.js';
import { exportDocs } from '../exports/export.openapi.js';
import { issueDocs } from '../issues/issue.openapi.js';
import { qrCodeDocs } from '../qr-codes/qr-code.openapi.js';
import { sessionDocs } from '../sessions/session.openapi.js';
import { suggestionDocs } from '../suggestions/suggestion.openapi.js';
import { teamDocs } from '../team/team.openapi.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';
import type { Feature } from './operation.js';
import { serviceDocs } from './service.openapi.js';

/** Every feature's operations, in the order the reference shows them. A new feature file goes here. */
export const FEATURES: Feature[] = [
  suggestionDocs,
  issueDocs,
  commentDocs,
  exportDocs,
  qrCodeDocs,
  teamDocs,
  apiKeyDocs,
  analyticsDocs,
  sessionDocs,
  serviceDocs,
];

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
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
