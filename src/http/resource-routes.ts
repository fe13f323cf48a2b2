import type { z } from 'zod';
import type { Action } from '../auth/authorize.js';
import type { ErrorStatus } from '../shared/responses.js';
import { defineFamilies } from './families.js';
import { offsetEnvelope } from './params.js';
import { created, noContent, ok } from './reply.js';
import {
  defineRoute,
  type Feature,
  type Method,
  type Route,
  type RouteContext,
  type Services,
  type SuccessResponse,
} from './route.js';

/**
 * A plain resource of the business family, declared in one call (after Infisical's
 * registerAppConnectionEndpoints): the resource says what differs (its path, names, access, schemas,
 * presenter, and per operation its id, words, inputs and the service it runs) and this writes the
 * rest, the same way for each: the paths, guard, access, responses, `Location` and the replies.
 * Resources with rules of their own in their routes (suggestions, issues) keep their own declarations.
 */
const BUSINESS = '/businesses/:business_id';

type Context<Q, B> = RouteContext<'business', Q, B>;
type Paged = z.ZodType<{ limit: number; offset: number }>;

/** What an operation says for itself. */
interface Operation<Q, B> {
  operationId: string;
  summary: string;
  description?: string;
  query?: Q & z.ZodType;
  queryNotes?: Record<string, string>;
  body?: B & z.ZodType;
  errors?: ErrorStatus[];
  /** The success response's description, where the resource's default says too little. */
  answer?: string;
}

/** A page of rows and their total, answered in the offset envelope (spec 4.5). */
interface ListOperation<Row, Q> extends Operation<Q, undefined> {
  json: z.ZodType;
  run: (context: Context<Q, undefined>) => Promise<{ rows: Row[]; total: number }>;
}

/** Every row, never paged, answered as `{data}` in both families: `business` is the dashboard's own. */
interface AllOperation<Row> extends Omit<Operation<undefined, undefined>, 'query' | 'body'> {
  json: z.ZodType;
  business: { operationId: string; summary: string };
  run: (context: { principal: { businessId: string }; db: Context<undefined, undefined>['db'] }) => Promise<Row[]>;
}

interface RowOperation<Row, Q, B> extends Operation<Q, B> {
  run: (context: Context<Q, B>) => Promise<Row>;
}

interface CreateOperation<Row, B, C extends Row> extends Operation<undefined, B> {
  run: (context: Context<undefined, B>) => Promise<C>;
  /** Fields shown in this answer only, after the row's (a key, a secret); `json` is the answer's schema. */
  reveal?: { json: z.ZodType; fields: (result: NoInfer<C>) => Record<string, unknown> };
  /** False: the answer has no `Location` (the new row's address). */
  location?: false;
  idempotency?: boolean;
  notReplayed?: readonly string[];
}

interface RemoveOperation<Q> extends Operation<Q, undefined> {
  run: (context: Context<Q, undefined>) => Promise<void>;
}

export interface ResourceSpec<Row extends { id: string }, LQ, GQ, CB, C extends Row, UB, DQ> {
  /** The collection below `/businesses/:business_id`: `/locations`; one row is `<path>/:id`. */
  path: string;
  /** The reference's section. */
  tag: { name: string; description: string };
  /** What `:id` names, for its 404 (`Location`). */
  resource: string;
  /** One row and several in the default descriptions: 'location', 'locations'. */
  noun: string;
  plural: string;
  /** What authorize() is asked for: reads, and everything else. */
  access: { read: Action; write: Action };
  /** One row's response schema. */
  schema: z.ZodType;
  present: (row: Row, services: Services) => object;
  all?: AllOperation<Row>;
  list?: ListOperation<Row, LQ & Paged>;
  create?: CreateOperation<Row, CB, C>;
  get?: RowOperation<Row, GQ, undefined>;
  update?: RowOperation<Row, undefined, UB>;
  remove?: RemoveOperation<DQ>;
  /** DELETE that keeps the row and answers it (a revoked key). */
  revoke?: RowOperation<Row, undefined, undefined>;
  /** The resource's other routes, after these. */
  more?: Route[];
}

const words = ({ operationId, summary, description, queryNotes, errors }: Operation<unknown, unknown>) => ({
  operationId,
  summary,
  ...(description === undefined ? {} : { description }),
  ...(queryNotes === undefined ? {} : { queryNotes }),
  ...(errors === undefined ? {} : { errors }),
});

/** The resource's routes, in the reference's order: the collection's GET and POST, then one row's. */
export function resourceFeature<
  Row extends { id: string },
  LQ = undefined,
  GQ = undefined,
  CB = undefined,
  C extends Row = Row,
  UB = undefined,
  DQ = undefined,
>(spec: ResourceSpec<Row, LQ, GQ, CB, C, UB, DQ>): Feature {
  const { path, resource, noun, plural, access, schema, present } = spec;
  const base = `${BUSINESS}${path}`;
  const shared = { tag: spec.tag.name, guard: 'business' } as const;
  const one = { ...shared, path: `${base}/:id`, resource } as const;
  const answer = (status: SuccessResponse['status'], description: string, json = schema): SuccessResponse[] => [
    { status, description, json },
  ];
  const routes: Route[] = [];
  const { all, list, create, get, update, remove, revoke } = spec;
  if (all) {
    const both = defineFamilies({
      method: 'get',
      path,
      tag: spec.tag.name,
      action: access.read,
      summary: all.summary,
      ...(all.description === undefined ? {} : { description: all.description }),
      responses: answer(200, all.answer ?? `Every ${noun} of the business`, all.json),
      v1: { operationId: all.operationId },
      business: all.business,
      handler: async ({ principal, db, services }) =>
        ok({ data: (await all.run({ principal, db })).map((row) => present(row, services)) }),
    });
    routes.push(both.v1, both.business);
  }
  if (list) {
    routes.push(
      defineRoute({
        ...shared,
        ...words(list),
        method: 'get',
        path: base,
        action: access.read,
        ...(list.query ? { query: list.query } : {}),
        responses: answer(200, list.answer ?? `A slice of the ${plural}`, list.json),
        handler: async (context) => {
          const { limit, offset } = context.query as { limit: number; offset: number };
          const { rows, total } = await list.run(context);
          return ok(
            offsetEnvelope(
              rows.map((row) => present(row, context.services)),
              total,
              limit,
              offset,
            ),
          );
        },
      }),
    );
  }
  if (create) {
    const headers = {
      Location: {
        description: `The new ${noun}: \`${base.replace(':business_id', '{business_id}')}/{id}\``,
        required: true,
      },
    };
    const [response] = answer(201, create.answer ?? `The new ${noun}`, create.reveal?.json);
    routes.push(
      defineRoute({
        ...shared,
        ...words(create),
        method: 'post',
        path: base,
        action: access.write,
        ...(create.body ? { body: create.body } : {}),
        ...(create.idempotency === undefined ? {} : { idempotency: create.idempotency }),
        ...(create.notReplayed === undefined ? {} : { notReplayed: create.notReplayed }),
        responses: [create.location === false ? response! : { ...response!, headers }],
        handler: async (context) => {
          const row = await create.run(context);
          const body = { ...present(row, context.services), ...create.reveal?.fields(row) };
          return create.location === false ? created(body) : created(body, `${context.baseUrl}${path}/${row.id}`);
        },
      }),
    );
  }
  /** A route on one row that answers it (200), as the presenter shows it. */
  const rowRoute = <Q, B>(method: Method, op: RowOperation<Row, Q, B>, action: Action, answers: string) =>
    defineRoute<'business', Q, B>({
      ...one,
      ...words(op),
      ...(op.query ? { query: op.query } : {}),
      ...(op.body ? { body: op.body } : {}),
      method,
      action,
      responses: answer(200, op.answer ?? answers),
      handler: async (context) => ok(present(await op.run(context), context.services)),
    });
  if (get) routes.push(rowRoute('get', get, access.read, `The ${noun}`));
  if (update) routes.push(rowRoute('patch', update, access.write, `The updated ${noun}`));
  if (remove) {
    routes.push(
      defineRoute({
        ...one,
        ...words(remove),
        method: 'delete',
        action: access.write,
        ...(remove.query ? { query: remove.query } : {}),
        responses: [{ status: 204, description: remove.answer ?? 'Deleted' }],
        handler: async (context) => {
          await remove.run(context);
          return noContent();
        },
      }),
    );
  }
  if (revoke) routes.push(rowRoute('delete', revoke, access.write, `The revoked ${noun}`));
  return { tags: [spec.tag], routes: [...routes, ...(spec.more ?? [])] };
}
