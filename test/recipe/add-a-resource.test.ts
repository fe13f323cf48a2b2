import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { columnList, fieldsOf, presenterOf, type ColumnMap } from '../../src/db/columns.js';
import { resourceTable } from '../../src/db/resource-table.js';
import { resourceFeature } from '../../src/http/resource-routes.js';
import { RouteTable, type Services } from '../../src/http/route.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { ROUTES } from '../../src/routes.js';
import { timestamp } from '../../src/shared/responses.js';
import { uuid } from '../../src/shared/schemas.js';
import { useTestApp } from '../support/app.js';
import { changeTriggerGaps, readCatalog } from '../support/change-triggers.js';
import { businessRouteNames, routesWithoutRow } from '../support/role-matrix.js';

/**
 * CONTRIBUTING.md's "Add a resource", walked once with a throwaway resource, widgets: each step as
 * the recipe says, and each check the recipe names shown catching that step when it is forgotten.
 */
const ctx = useTestApp();

// Step 2: the row and its column map. Everything a client sees of a widget comes from here.
interface WidgetRow {
  id: string;
  business_id: string;
  name: string;
  created_at: Date;
}

const WIDGET_COLUMN_MAP = {
  id: { shownIn: 'read', schema: uuid },
  business_id: { shownIn: null },
  name: { shownIn: 'read', schema: z.string().meta({ description: 'What the business calls it' }) },
  created_at: { shownIn: 'read', schema: timestamp, instant: true },
} satisfies ColumnMap<WidgetRow, 'read'>;

// Step 3: the select list, the presenter and the response schema, from the map.
const COLUMNS = columnList(WIDGET_COLUMN_MAP);
const toWidgetResponse = presenterOf(WIDGET_COLUMN_MAP, ['read']);
const example = { id: '0194b2b1-33c7-7e05-a1f8-9b4d2c6e0a47', name: 'Terrace', created_at: '2026-11-21T09:30:00.123Z' };
const widgetSchema = z
  .object(fieldsOf(WIDGET_COLUMN_MAP, ['read']))
  .meta({ id: 'Widget', description: 'A throwaway resource', examples: [example] });

// Step 4: the reads from the table factory, the routes from the resource factory: only what differs.
const WIDGETS = resourceTable<WidgetRow, 'created_at'>({
  table: 'widgets',
  columns: COLUMNS,
  resource: 'Widget',
  sorts: { created_at: 'created_at' },
});
const widgetFeature = resourceFeature({
  path: '/widgets',
  tag: { name: 'Widgets', description: 'A throwaway resource' },
  resource: 'Widget',
  noun: 'widget',
  plural: 'widgets',
  access: { read: 'read', write: 'write' },
  schema: widgetSchema,
  present: toWidgetResponse,
  get: {
    operationId: 'getWidget',
    summary: 'Read a widget',
    run: ({ principal, id, db }) => WIDGETS.get(db, principal.businessId, id),
  },
});

describe('Adding a resource, step by step as CONTRIBUTING says', () => {
  it('When its table is read by a cached list, then the catalog check names it until its change triggers exist', async () => {
    // Step 1, the migration, tried in a transaction that is rolled back: nothing stays behind.
    const client = await ctx.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(/* sql */ `
        CREATE TABLE widgets (
          id          uuid PRIMARY KEY,
          business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
          name        text NOT NULL,
          created_at  timestamptz(3) NOT NULL DEFAULT now()
        )`);
      expect(changeTriggerGaps(await readCatalog(client), ['widgets'])).toEqual([
        'widgets: no change trigger on INSERT, UPDATE, DELETE',
      ]);
      await client.query(/* sql */ `
        CREATE TRIGGER widgets_change_insert AFTER INSERT ON widgets
          REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
        CREATE TRIGGER widgets_change_update AFTER UPDATE ON widgets
          REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();
        CREATE TRIGGER widgets_change_delete AFTER DELETE ON widgets
          REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_changes();`);
      expect(changeTriggerGaps(await readCatalog(client), ['widgets'])).toEqual([]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('When the column map lacks a column of the row, then it does not compile; complete, it gives the select list, presenter and schema', () => {
    const incomplete = {
      id: { shownIn: 'read', schema: uuid },
      business_id: { shownIn: null },
      created_at: { shownIn: 'read', schema: timestamp, instant: true },
      // @ts-expect-error -- `name` is a column of the row: a map without it is refused by the type check
    } satisfies ColumnMap<WidgetRow, 'read'>;
    expect(Object.keys(incomplete)).not.toContain('name');

    expect(COLUMNS).toBe('id, business_id, name, created_at');
    const row = { id: example.id, business_id: example.id, name: 'Terrace', created_at: new Date(example.created_at) };
    expect(toWidgetResponse(row)).toEqual(example);
    expect(Object.keys(widgetSchema.shape)).toEqual(['id', 'name', 'created_at']);
  });

  it('When declared with the resource factory, then the reference shows its operation, access and schema from the map', () => {
    const document = buildOpenApiDocument([widgetFeature], { version: '0.0.0', rateLimitPerMinute: 60 }) as {
      paths: Record<string, Record<string, { operationId: string; 'x-required-roles': string[] }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const read = document.paths['/businesses/{business_id}/widgets/{id}']?.get;
    expect(read?.operationId).toBe('getWidget');
    expect(read?.['x-required-roles']).toEqual(['owner', 'admin', 'member']);
    expect(Object.keys(document.paths)).toEqual(['/businesses/{business_id}/widgets/{id}']);
    expect(Object.keys(document.components.schemas.Widget!.properties)).toEqual(['id', 'name', 'created_at']);
  });

  it('When its business route has no row in the role matrix, then the matrix check names it', () => {
    const routes = [...ROUTES, ...widgetFeature.routes];
    const rows = businessRouteNames(ROUTES);
    expect(routesWithoutRow(routes, rows)).toEqual(['GET /widgets/:id']);
    expect(routesWithoutRow(routes, [...rows, 'GET /widgets/:id'])).toEqual([]);
  });

  it('When the feature is declared but its routes never mounted, then the route table refuses to start', () => {
    const table = new RouteTable(widgetFeature.routes, {} as Services);
    table.mount(['api_key'], '/api/v1');
    expect(() => table.assertAllMounted()).toThrow(
      'Declared routes never mounted: GET /businesses/:business_id/widgets/:id',
    );
  });
});
