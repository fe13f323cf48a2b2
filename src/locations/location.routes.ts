import { offsetEnvelope } from '../http/params.js';
import { created, noContent, ok } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { toLocationResponse } from './location.presenter.js';
import { locationOffsetPageSchema, locationSchema } from './location.responses.js';
import { deleteLocationQuery, listLocationsQuery, locationBody } from './location.schemas.js';
import { changeLocation, createLocation, getLocation, listLocations, removeLocation } from './location.service.js';

const base = '/businesses/:business_id/locations';
const common = { tag: 'Locations', guard: 'business' } as const;
const one = { ...common, path: `${base}/:id`, resource: 'Location' } as const;

/** /businesses/:business_id/locations: the places suggestions, issues and QR codes may name. */
export const locationFeature: Feature = {
  tags: [{ name: 'Locations', description: 'Places of a business: QR codes and suggestions may name one' }],
  routes: [
    defineRoute({
      ...common,
      method: 'get',
      path: base,
      operationId: 'listLocations',
      summary: 'List locations',
      action: 'read',
      query: listLocationsQuery,
      queryNotes: { sort: '`created_at` (default) or `name` (ignoring case); ties are broken by id' },
      responses: [{ status: 200, description: 'A slice of the locations', json: locationOffsetPageSchema }],
      handler: async ({ principal, query: { limit, offset, sort, order }, db }) => {
        const result = await listLocations(db, principal.businessId, { sort, order, limit, offset });
        return ok(offsetEnvelope(result.rows.map(toLocationResponse), result.total, limit, offset));
      },
    }),
    defineRoute({
      ...one,
      method: 'get',
      operationId: 'getLocation',
      summary: 'Read a location',
      action: 'read',
      responses: [{ status: 200, description: 'The location', json: locationSchema }],
      handler: async ({ principal, id, db }) => ok(toLocationResponse(await getLocation(db, principal.businessId, id))),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: base,
      operationId: 'createLocation',
      summary: 'Create a location',
      description: 'A name the business already uses (ignoring case) is a 409.',
      action: 'write',
      body: locationBody,
      responses: [
        {
          status: 201,
          description: 'The new location',
          json: locationSchema,
          headers: {
            Location: { description: 'The new location: `/businesses/{business_id}/locations/{id}`', required: true },
          },
        },
      ],
      errors: [409],
      handler: async ({ baseUrl, principal, body, db }) => {
        const location = await createLocation(db, principal.businessId, principal, body.name);
        return created(toLocationResponse(location), `${baseUrl}/locations/${location.id}`);
      },
    }),
    defineRoute({
      ...one,
      method: 'patch',
      operationId: 'updateLocation',
      summary: 'Rename a location',
      description: 'A name another location of the business uses (ignoring case) is a 409.',
      action: 'write',
      body: locationBody,
      responses: [{ status: 200, description: 'The renamed location', json: locationSchema }],
      errors: [409],
      handler: async ({ principal, body, id, db }) =>
        ok(toLocationResponse(await changeLocation(db, principal.businessId, principal, id, body.name))),
    }),
    defineRoute({
      ...one,
      method: 'delete',
      operationId: 'deleteLocation',
      summary: 'Delete a location',
      description:
        'A location still named by QR codes, suggestions or issues is a 409 that counts them, unless ' +
        '`force=true`: then their `location_id` becomes null (nothing else about them changes) and the ' +
        'location is deleted.',
      action: 'write',
      query: deleteLocationQuery,
      responses: [{ status: 204, description: 'Deleted' }],
      errors: [409],
      handler: async ({ principal, query, id, db }) => {
        await removeLocation(db, principal.businessId, principal, id, query.force);
        return noContent();
      },
    }),
  ],
};
