import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type supertest from 'supertest';
import { afterEach } from 'vitest';
import type { ErrorStatus } from '../../src/shared/responses.js';
import { apiDocument } from '../../src/routes.js';
import { errorResponseName } from '../../src/openapi/common.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';

/**
 * The contract test: every response a test receives through `checked()` agents is held to the
 * OpenAPI document the app serves: its operation (method and path template), its status, its
 * content type, its required headers and, for JSON, its body. Mismatches are collected and fail
 * the test that received them (see useContractCheck), so the code and the document cannot drift.
 */

type JsonObject = Record<string, unknown>;
interface ResponseObject {
  description: string;
  headers?: Record<string, JsonObject>;
  content?: Record<string, { schema?: JsonObject }>;
}
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, ResponseObject>;
  params: number;
}
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

/**
 * Pages for people, not part of the API the document describes: the reference and its assets, the
 * landing page, the public feedback pages (`/f/<code>`, their JSON side is in the document), their assets
 * and the site's icon.
 */
const OUTSIDE_THE_API = /^\/(docs(\/|$)|f\/|assets\/|brand\/|favicon\.ico$|$)/;

/**
 * Answers a path or method no route has can only come from what runs before routing: the
 * authentication, the body parser, the rate limiter and the readiness gate, or the final 404.
 * Anything else (a 200, a 400 about a query parameter, a 404 about an id) means an undocumented route.
 */
const BEFORE_ROUTING: Record<number, readonly string[] | 'any'> = {
  400: ['MALFORMED_JSON', 'BODY_TOO_DEEP', 'MALFORMED_BODY', 'MALFORMED_PATH'],
  401: 'any',
  403: 'any',
  404: ['ROUTE_NOT_FOUND'],
  413: 'any',
  415: 'any',
  429: 'any',
  503: 'any',
};

const SCHEMA_REF = '#/components/schemas/';

function asUrn(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asUrn);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)
        ? `urn:schema:${value.slice(SCHEMA_REF.length)}`
        : asUrn(value),
    ]),
  );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** As Express matches a path: any case, an optional trailing slash, one segment per parameter. */
const templatePattern = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{\w+\}/)
      .map(escape)
      .join('[^/]+')}/?$`,
    'i',
  );

export class ContractChecker {
  readonly #document: OpenApiDocument;
  readonly #operations: Operation[];
  readonly #ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    this.#document = document;
    // CommonJS under NodeNext: the default import is the module, whose `default` is the plugin.
    addFormats.default(this.#ajv);
    // OpenAPI's discriminator only tells code generators which branch a `type` names: the oneOf it sits
    // on validates exactly, and ajv's own support refuses the mapping that generators need.
    this.#ajv.addKeyword('discriminator');
    const components = document.components as { schemas: Record<string, unknown> };
    for (const [name, schema] of Object.entries(components.schemas)) {
      this.#ajv.addSchema(asUrn(schema) as JsonObject, `urn:schema:${name}`);
    }
    this.#operations = Object.entries(document.paths)
      .flatMap(([template, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          method: method.toUpperCase(),
          template,
          pattern: templatePattern(template),
          responses: operation.responses as Record<string, ResponseObject>,
          params: (template.match(/\{/g) ?? []).length,
        })),
      )
      // A literal segment wins over a parameter, as routes are declared (no clash today, but cheap to keep).
      .sort((a, b) => a.params - b.params);
  }

  /** Every way `res` departs from the document, as messages (none when it conforms). */
  check(method: string, url: string, res: ReceivedResponse): string[] {
    // Not new URL(): it would resolve `%2e%2e` as `..`, which the server never does.
    const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split(/[?#]/)[0] || '/';
    if (OUTSIDE_THE_API.test(path)) return [];
    const label = `${method} ${path} → ${res.status}`;
    const operation = this.#operations.find((op) => op.method === method && op.pattern.test(path));
    if (!operation) return this.#checkUnrouted(label, res);

    const where = `${operation.method} ${operation.template} ${res.status}`;
    const response = this.#resolve<ResponseObject>(operation.responses[String(res.status)]);
    if (!response) {
      const documented = Object.keys(operation.responses).join(', ');
      return [
        `${label}: status ${res.status} is not documented for ${operation.method} ${operation.template} (${documented})`,
      ];
    }
    return [...this.#checkHeaders(label, response, res), ...this.#checkContent(label, where, response, res)];
  }

  #checkUnrouted(label: string, res: ReceivedResponse): string[] {
    const codes = BEFORE_ROUTING[res.status];
    const code = (res.body as { code?: string } | undefined)?.code;
    if (!codes || (codes !== 'any' && !codes.includes(code ?? ''))) {
      return [`${label}: no operation in the document has this method and path (${code ?? 'no code'})`];
    }
    const responses = (this.#document.components as { responses: Record<string, ResponseObject> }).responses;
    const response = responses[errorResponseName(res.status as ErrorStatus)];
    return response ? this.#checkContent(label, `unrouted ${res.status}`, response, res) : [];
  }

  #resolve<T>(object: unknown): T | undefined {
    const ref = (object as { $ref?: string } | undefined)?.$ref;
    if (!ref) return object as T | undefined;
    return ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as JsonObject | undefined)?.[key], this.#document) as T | undefined;
  }

  #checkHeaders(label: string, response: ResponseObject, res: ReceivedResponse): string[] {
    return Object.entries(response.headers ?? {})
      .filter(([, header]) => this.#resolve<{ required?: boolean }>(header)?.required)
      .filter(([name]) => res.headers[name.toLowerCase()] === undefined)
      .map(([name]) => `${label}: the required header ${name} is missing`);
  }

  #checkContent(label: string, where: string, response: ResponseObject, res: ReceivedResponse): string[] {
    const contentType = res.headers['content-type'];
    const mediaType = typeof contentType === 'string' ? contentType.split(';')[0]!.trim().toLowerCase() : undefined;
    if (!response.content) {
      const empty = res.text === undefined || res.text === '';
      return mediaType || !empty
        ? [`${label}: the document says no body, but one came (${mediaType ?? 'no type'})`]
        : [];
    }
    const media = mediaType && response.content[mediaType];
    if (!media) {
      const documented = Object.keys(response.content).join(', ');
      return [`${label}: content type ${mediaType ?? '(none)'} is not documented (${documented})`];
    }
    // Images and CSV: the content type is what the document can say about them.
    if (mediaType !== 'application/json' || !media.schema) return [];
    const validate = this.#validator(`${where} ${mediaType}`, media.schema);
    if (validate(res.body)) return [];
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
    return [`${label}: the body does not match ${where}:\n    ${errors.join('\n    ')}`];
  }

  /** How `value` departs from `schema` (a schema of the document, its `$ref`s resolved): none when it conforms. */
  validate(schema: JsonObject, value: unknown): string[] {
    const validate = this.#ajv.compile(asUrn(schema) as JsonObject);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || '(value)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    );
  }

  /** Compiled once per operation, status and media type, then reused by every test in the worker. */
  #validator(key: string, schema: JsonObject): ValidateFunction {
    let validate = this.#validators.get(key);
    if (!validate) {
      validate = this.#ajv.compile(asUrn(schema) as JsonObject);
      this.#validators.set(key, validate);
    }
    return validate;
  }
}

let checker: ContractChecker | undefined;
const failures: string[] = [];

/** Records how `res` departs from the document; never throws into the request. */
export function recordResponse(method: string, url: string, res: ReceivedResponse): void {
  try {
    checker ??= new ContractChecker(apiDocument());
    failures.push(...checker.check(method, url, res));
  } catch (err) {
    failures.push(`${method} ${url}: the contract check itself failed: ${String(err)}`);
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;

/** Makes every request of `agent` checked against the document. */
export function checked(agent: supertest.Agent): supertest.Agent {
  for (const method of METHODS) {
    const send = agent[method].bind(agent);
    agent[method] = (url: string) => {
      const test = send(url);
      test.on('response', (res: ReceivedResponse) => recordResponse(test.method, test.url, res));
      return test;
    };
  }
  return agent;
}

/** Fails each test whose responses departed from the document, listing how. Call once per file. */
export function useContractCheck(): void {
  afterEach(() => {
    if (failures.length === 0) return;
    const found = failures.splice(0);
    throw new Error(`${found.length} response(s) do not match the OpenAPI document:\n  ${found.join('\n  ')}`);
  });
}
