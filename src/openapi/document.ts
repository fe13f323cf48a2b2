import type { z } from 'zod';
import { exampleOf, type ErrorStatus } from '../shared/responses.js';
import { uuid } from '../shared/schemas.js';
import { accessFor } from './access.js';
import {
  errorResponseName,
  errorResponses,
  headers,
  idempotencyKeyParameter,
  overview,
  ref,
  securitySchemes,
} from './common.js';
import { componentId, inputSchema, queryProperties, responseComponents } from './json-schema.js';
import {
  takesIdempotencyKey,
  type JsonSchema,
  type RouteDoc as OperationSpec,
  type SuccessResponse,
  type WebhookDoc,
} from '../http/route.js';

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

/** `/businesses/:business_id/issues/:id` → `/businesses/{business_id}/issues/{id}`. */
export const toTemplate = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const pathParamNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);

/** Every path parameter is a UUID, described as the server checks it (idParam parses with `uuid`). */
const UUID_SCHEMA = inputSchema(uuid);

/** Guards whose requests are charged to a credential: their responses carry the RateLimit headers. */
const RATE_LIMITED_GUARDS = new Set(['api_key', 'business', 'session']);

/** The error statuses an operation can answer with, from how it is reached and what it parses. */
function errorStatuses(op: OperationSpec): (ErrorStatus | 429)[] {
  const statuses = new Set<ErrorStatus | 429>(op.errors ?? []);
  const add = (...more: (ErrorStatus | 429)[]) => more.forEach((status) => statuses.add(status));
  if (op.guard === 'api_key' || op.guard === 'business') add(401, 403, 429);
  if (op.guard === 'session') add(401, 429);
  if (op.guard === 'public') add(429);
  // A path parameter that does not percent-decode is a 400, whatever the operation.
  if (op.query || op.body || op.path.includes(':')) add(400);
  if (op.body || op.upload) add(413, 415);
  if (op.upload) add(400);
  if (op.resource) add(404);
  // A malformed key is a 400; a key still in use a 409; a key used for another request a 422.
  if (takesIdempotencyKey(op)) add(400, 409, 422);
  add(500);
  if (op.guard !== 'open') add(503);
  return [...statuses].sort((a, b) => a - b);
}

function security(op: OperationSpec, keysAccepted: boolean) {
  switch (op.guard) {
    case 'api_key':
      return [{ ApiKeyHeader: [] }, { BearerAuth: [] }];
    case 'business':
      return keysAccepted ? [{ BearerAuth: [] }, { ApiKeyHeader: [] }] : [{ BearerAuth: [] }];
    case 'session':
      return [{ BearerAuth: [] }];
    case 'public':
      return op.optionalSession ? [{}, { BearerAuth: [] }] : [];
    default:
      return [];
  }
}

const list = (items: string[]) => items.map((item) => `\`${item}\``).join(' or ');

/** Who may call, in words and as extensions (`x-required-scope`, `x-required-roles`). */
function access(op: OperationSpec): { text: string; extensions: Record<string, unknown>; keysAccepted: boolean } {
  if (op.guard === 'open' || op.guard === 'public') return { text: '', extensions: {}, keysAccepted: false };
  if (op.guard === 'session') {
    return { text: '**Access:** a dashboard session token.', extensions: {}, keysAccepted: false };
  }
  const { scopes, roles } = accessFor(op.action ?? 'read');
  const keysAccepted = scopes.length > 0;
  const scope = scopes[0];
  const keyText = scope ? `an API key with the \`${scope}\` scope${scope === 'read' ? ' (or `write`)' : ''}` : '';
  const memberText = `a session of a member with role ${list(roles)}`;
  const text =
    op.guard === 'api_key'
      ? `**Access:** ${keyText}.`
      : keysAccepted
        ? `**Access:** ${keyText} of this business, or ${memberText}.`
        : `**Access:** ${memberText}; API keys cannot do this.`;
  const extensions: Record<string, unknown> = {};
  if (scope) extensions['x-required-scope'] = scope;
  if (op.guard === 'business') extensions['x-required-roles'] = roles;
  return { text: op.accessNote ? `${text} ${op.accessNote}` : text, extensions, keysAccepted };
}

function parameters(op: OperationSpec) {
  const path = pathParamNames(op.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    description:
      op.params?.[name] ??
      (name === 'business_id'
        ? 'The business; a malformed id, or one the credential has no access to, is a 403'
        : 'A malformed id is a 404, like an unknown one'),
    schema: UUID_SCHEMA,
  }));
  const query = op.query
    ? queryProperties(op.query).map(({ name, schema, required }) => {
        const description = op.queryNotes?.[name] ?? (schema.description as string | undefined);
        return { name, in: 'query', required, ...(description ? { description } : {}), schema };
      })
    : [];
  const idempotencyKey = takesIdempotencyKey(op) ? [ref('parameters', 'IdempotencyKey')] : [];
  return [...path, ...query, ...idempotencyKey];
}

function successResponse(op: OperationSpec, response: SuccessResponse) {
  const headers: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'XRequestId') };
  if (RATE_LIMITED_GUARDS.has(op.guard)) {
    headers.RateLimit = ref('headers', 'RateLimit');
    headers['RateLimit-Policy'] = ref('headers', 'RateLimitPolicy');
  }
  if (takesIdempotencyKey(op)) headers['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed');
  if (takesIdempotencyKey(op) && op.notReplayed?.length) {
    headers['Idempotent-Replay-Withheld'] = ref('headers', 'IdempotentReplayWithheld');
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    headers[name] = {
      description: header.description,
      required: header.required ?? false,
      schema: header.schema ?? { type: 'string' },
    };
  }
  const content: Record<string, { schema: JsonSchema; example?: unknown }> = {};
  if (response.json) {
    content['application/json'] = {
      schema: ref('schemas', componentId(response.json)),
      example: requiredExample(response.json, `${op.operationId} ${response.status}`),
    };
  }
  for (const [type, { schema, example }] of Object.entries(response.media ?? {})) {
    content[type] = example === undefined ? { schema } : { schema, example };
  }
  return {
    description: response.description,
    headers,
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

/** An example declared on the schema (`.meta({ examples })`): every body an operation takes or gives has one. */
function requiredExample(schema: z.ZodType, where: string): unknown {
  const example = exampleOf(schema);
  if (example === undefined) throw new Error(`${where}: declare an example on its schema with .meta({ examples })`);
  return example;
}

/** The JSON body, described as the client writes it, with the example declared on its schema. */
function requestBody(operationId: string, body: z.ZodType) {
  const { examples: _examples, ...schema } = inputSchema(body);
  return {
    required: true,
    content: { 'application/json': { schema, example: requiredExample(body, `${operationId} request body`) } },
  };
}

/** Raw bytes in one of the media types the route takes (OpenAPI 3.1: `contentMediaType`, no schema of its own). */
function uploadRequestBody(types: readonly string[]) {
  return {
    required: true,
    content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
  };
}

/** What an Idempotency-Key replay of this operation leaves out (RouteDoc.notReplayed). */
function notReplayedNote(op: OperationSpec): string {
  const fields = takesIdempotencyKey(op) ? (op.notReplayed ?? []) : [];
  if (fields.length === 0) return '';
  return (
    `**Replays:** a retry with the same \`Idempotency-Key\` gets this response again with ${list([...fields])} set ` +
    'to null and `Idempotent-Replay-Withheld` naming it: it is shown to the first request only, never stored.'
  );
}

function operation(op: OperationSpec) {
  const who = access(op);
  const responses: Record<string, unknown> = {};
  for (const response of op.responses) responses[response.status] = successResponse(op, response);
  for (const status of errorStatuses(op)) responses[status] = ref('responses', errorResponseName(status));
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: [op.description, notReplayedNote(op), who.text].filter(Boolean).join('\n\n'),
    tags: [op.tag],
    security: security(op, who.keysAccepted),
    ...who.extensions,
    parameters: parameters(op),
    ...(op.body ? { requestBody: requestBody(op.operationId, op.body) } : {}),
    ...(op.upload ? { requestBody: uploadRequestBody(op.upload.types) } : {}),
    ...(op.bodyMedia ? { requestBody: { required: true, content: op.bodyMedia } } : {}),
    responses,
  };
}

/** A webhook the service sends: the body, its signature headers, and what the receiver answers. */
function webhookOperation(hook: WebhookDoc) {
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return {
    post: {
      operationId: `webhook_${hook.type.replace(/\./g, '_')}`,
      summary: hook.summary,
      description:
        `The body is a \`${componentId(hook.joined)}\` (one schema per \`type\`, joined on it); this type's is ` +
        `\`${componentId(hook.body)}\`. ` +
        'Signed to Standard Webhooks v1: verify with the `standardwebhooks` package and the endpoint secret ' +
        '(README, "Events and webhooks"). Answer 2xx within 10 s; anything else is retried, a 410 disables ' +
        'the endpoint.',
      tags: ['Webhooks'],
      security: [],
      parameters: [
        header('webhook-id', 'The event id: the same on every attempt, so receivers can drop repeats'),
        header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed'),
        header(
          'webhook-signature',
          '`v1,<base64 HMAC-SHA256 of id.timestamp.body>`; two, space-separated, during a secret rotation',
        ),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('schemas', componentId(hook.joined)),
            example: requiredExample(hook.body, `webhook ${hook.type}`),
          },
        },
      },
      responses: {
        '200': { description: 'Received (any 2xx)' },
        '410': { description: 'Gone: the endpoint is disabled at once' },
      },
    },
  };
}

export interface DocumentOptions {
  version: string;
  rateLimitPerMinute: number;
}

/** The OpenAPI 3.1 document of `features`: every operation, with its parameters, body and responses. */
export function buildOpenApiDocument(
  features: { tags: { name: string; description: string }[]; routes: OperationSpec[]; webhooks?: WebhookDoc[] }[],
  options: DocumentOptions,
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  for (const op of features.flatMap((feature) => feature.routes)) {
    const template = toTemplate(op.path);
    if (operationIds.has(op.operationId)) throw new Error(`operationId ${op.operationId} is declared twice`);
    if (paths[template]?.[op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is declared twice`);
    operationIds.add(op.operationId);
    (paths[template] ??= {})[op.method] = operation(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Feedback API',
      version: options.version,
      description: overview(options.rateLimitPerMinute),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: features.flatMap((feature) => feature.tags),
    paths,
    webhooks: Object.fromEntries(
      features.flatMap((feature) => feature.webhooks ?? []).map((hook) => [hook.type, webhookOperation(hook)]),
    ),
    components: {
      securitySchemes,
      schemas: responseComponents(),
      responses: errorResponses(),
      parameters: { IdempotencyKey: idempotencyKeyParameter },
      headers,
    },
  };
}
