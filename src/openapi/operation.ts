import type { z } from 'zod';
import type { Action } from '../http/authorize.js';
import type { ErrorStatus } from '../http/responses.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * How a route is reached, as wired in app.ts:
 * - `api_key`: /api/v1, an API key in X-API-Key or Authorization: Bearer; limited per key.
 * - `business`: /businesses/{business_id}, an API key of that business or a member's session token
 *   (either header); limited per credential.
 * - `session`: a dashboard session token in Authorization: Bearer; failed authentications are limited.
 * - `public`: no credential; failed authentications are limited per address.
 * - `open`: no credential and no limit (health, the document itself).
 */
export type Guard = 'api_key' | 'business' | 'session' | 'public' | 'open';

/** A JSON Schema written by hand: only for what zod does not describe (CSV text, images). */
export type JsonSchema = Record<string, unknown>;

export interface HeaderSpec {
  description: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface SuccessResponse {
  status: 200 | 201 | 204;
  description: string;
  /** A JSON body. Its schema must carry an `id` in its metadata: it becomes a named component. */
  json?: z.ZodType;
  /** Bodies in other media types, by media type. */
  media?: Record<string, JsonSchema>;
  headers?: Record<string, HeaderSpec>;
}

/** One route, declared once: the OpenAPI document and the contract test are built from these. */
export interface OperationSpec {
  method: Method;
  /** The full path as mounted, Express style: `/api/v1/suggestions/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  guard: Guard;
  /** What the handler asks authorize() for; the key scope and member roles it needs are derived from it. */
  action?: Action;
  /** When what is needed depends on the request (e.g. a status-only change). */
  accessNote?: string;
  /** Descriptions of the path parameters, by name (every path parameter is a UUID). */
  params?: Record<string, string>;
  /** The zod schemas the handler parses its query string and its body with. */
  query?: z.ZodType;
  /** Descriptions of query parameters, by name, where the schema's own says too little. */
  queryNotes?: Record<string, string>;
  body?: z.ZodType;
  responses: SuccessResponse[];
  /** Error statuses beyond those the guard and inputs imply (400, 401, 403, 413, 415, 429, 500, 503; 404 for an `:id`). */
  errors?: ErrorStatus[];
}

export interface Feature {
  tags: { name: string; description: string }[];
  operations: OperationSpec[];
}
