import fc from 'fast-check';
import supertest from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/openapi/api-document.js';
import { useTestApp } from '../support/app.js';
import { ContractChecker } from '../support/contract.js';
import { testMode } from '../support/database.js';
import { buildIssue, buildTeam } from '../support/factories.js';
import { anyValue, asQueryValue, bodyValue, resolver, type JsonSchema } from '../support/fuzz.js';

/**
 * Property-based fuzzing over every operation of the OpenAPI document: random requests, valid and
 * invalid, each checked for no 5xx, the error shape on every 4xx, the document's schema on every
 * answer, and, for creations, that the created object reads back equal. The seed is fixed (override
 * with FUZZ_SEED) and fast-check prints it with the shrunk counterexample on failure.
 */
const ctx = useTestApp();
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
}
interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface Op {
  method: 'get' | 'post' | 'patch' | 'delete';
  template: string;
  operation: OperationObject;
}

const document = apiDocument();
const resolve = resolver(document);
const checker = new ContractChecker(document);

/**
 * Sign-in, logout and invite acceptance hash or verify a password with argon2 on purpose (about 0.1 s
 * each): they are fuzzed too, at a lower rate, so the run stays a few seconds.
 */
const SLOW = new Set(['/auth/login', '/invites/accept']);

const operations: Op[] = Object.entries(document.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    method: method as Op['method'],
    template,
    operation: operation,
  })),
);

interface World {
  team: Awaited<ReturnType<typeof buildTeam>>;
  /** A real id per collection, so most generated paths name something that exists. */
  ids: Record<'suggestions' | 'issues' | 'qr-codes', string>;
}

function requestFor(op: Op, world: World) {
  const params = op.operation.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const jsonBody = op.operation.requestBody?.content['application/json']?.schema;
  const collection = /\/(suggestions|issues|qr-codes)\/\{id\}/.exec(op.template)?.[1] as keyof World['ids'] | undefined;
  const idArb = fc.oneof(
    { weight: collection ? 6 : 0, arbitrary: fc.constant(collection ? world.ids[collection] : '') },
    { weight: 1, arbitrary: fc.uuid({ version: 7 }) },
    { weight: 1, arbitrary: fc.constantFrom('not-a-uuid', "' OR 1=1 --", '0', 'ＦＦ', 'x'.repeat(300)) },
  );
  return fc.record({
    path: fc.tuple(...pathParams.map((p) => (p.name === 'business_id' ? fc.constant(world.team.business.id) : idArb))),
    query: fc.record(
      Object.fromEntries(queryParams.map((p) => [p.name, anyValue(p.schema, resolve).map(asQueryValue)])),
      { requiredKeys: [] },
    ),
    extraQuery: fc.oneof(
      { weight: 9, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('colour', 'offset', 'page', '__proto__') },
    ),
    body: jsonBody ? bodyValue(jsonBody, resolve) : fc.constant(undefined),
  });
}

function credentialFor(template: string, world: World): Record<string, string> {
  if (template.startsWith('/api/v1/') && !template.endsWith('openapi.json')) return { 'X-API-Key': world.team.write };
  if (template.startsWith('/businesses/')) return { Authorization: `Bearer ${world.team.ownerToken}` };
  return {};
}

function errorShapeProblems(status: number, body: unknown): string[] {
  if (status < 400 || status >= 500) return [];
  const b = body as Record<string, unknown> & { error?: { code?: unknown } };
  if (status === 429) return b.error?.code === 'RATE_LIMIT_EXCEEDED' ? [] : ['429 without the rate-limit body'];
  const ok = b.statusCode === status && typeof b.message === 'string' && typeof b.error === 'string';
  return ok ? [] : [`${status} without the error shape: ${JSON.stringify(body)}`];
}

describe.runIf(testMode() === 'embedded')('fuzzing every documented operation', () => {
  let world: World;

  beforeAll(async () => {
    const team = await buildTeam(ctx.db);
    const suggestion = await supertest(ctx.app)
      .post('/api/v1/suggestions')
      .set('X-API-Key', team.write)
      .send({ content: 'seed' });
    const issue = await buildIssue(ctx.db, team.business.id);
    const qr = await supertest(ctx.app)
      .post(`/businesses/${team.business.id}/qr-codes`)
      .set('X-API-Key', team.write)
      .send({ label: 'seed' });
    world = {
      team,
      ids: { suggestions: suggestion.body.id as string, issues: issue.id, 'qr-codes': qr.body.id as string },
    };
  });

  it(`When ${RUNS} random requests hit the documented operations, then none is a 5xx and every answer matches the document`, async () => {
    // Operations are drawn by name, so a counterexample prints `GET /path`, not the whole operation object.
    const byName = new Map(operations.map((op) => [`${op.method.toUpperCase()} ${op.template}`, op]));
    const weighted = [...byName.keys()].map((name) => ({
      weight: SLOW.has(byName.get(name)!.template) ? 1 : 20,
      arbitrary: fc.constant(name),
    }));
    const scenario = fc
      .oneof(...weighted)
      .chain((name) => requestFor(byName.get(name)!, world).map((req) => ({ name, req })));
    let sent = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(scenario, async ({ name, req }) => {
        const op = byName.get(name)!;
        let i = 0;
        const path = op.template.replace(/\{\w+\}/g, () => encodeURIComponent(req.path[i++] ?? ''));
        const query: Record<string, string> = {};
        for (const [key, value] of Object.entries(req.query)) if (value !== undefined) query[key] = value;
        if (req.extraQuery) query[req.extraQuery] = '1';
        let call = supertest(ctx.app)[op.method](path).query(query).set(credentialFor(op.template, world));
        if (req.body !== undefined) call = call.set('Content-Type', 'application/json').send(JSON.stringify(req.body));
        const res = await call;
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const problems = [
          ...(res.status >= 500 ? [`${res.status}: ${res.text}`] : []),
          ...errorShapeProblems(res.status, res.body),
          ...checker.check(op.method.toUpperCase(), `${path}?${new URLSearchParams(query).toString()}`, res),
        ];
        if (
          res.status === 201 &&
          op.method === 'post' &&
          typeof res.body?.id === 'string' &&
          /\/(suggestions|issues|qr-codes)$/.test(path)
        ) {
          const read = await supertest(ctx.app)
            .get(`${path}/${res.body.id as string}`)
            .set(credentialFor(op.template, world));
          if (JSON.stringify(read.body) !== JSON.stringify(res.body))
            problems.push(`created ≠ read back: ${res.text} vs ${read.text}`);
        }
        if (problems.length > 0) throw new Error(`${op.method.toUpperCase()} ${path}\n${problems.join('\n')}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(sent).toBe(RUNS);
    // The run is only worth something if it gets past validation: a good share must succeed.
    const succeeded = [...statuses].filter(([status]) => status < 300).reduce((sum, [, n]) => sum + n, 0);
    expect(succeeded, JSON.stringify(Object.fromEntries(statuses))).toBeGreaterThan(RUNS * 0.25);
  }, 240_000);
});
