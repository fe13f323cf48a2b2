import { resourceFeature } from '../http/resource-routes.js';
import { toLocationResponse } from './location.presenter.js';
import { locationOffsetPageSchema, locationSchema } from './location.responses.js';
import { deleteLocationQuery, listLocationsQuery, locationBody } from './location.schemas.js';
import { changeLocation, createLocation, getLocation, listLocations, removeLocation } from './location.service.js';

/** /businesses/:business_id/locations: the places suggestions, issues and QR codes may name. */
export const locationFeature = resourceFeature({
  path: '/locations',
  tag: { name: 'Locations', description: 'Places of a business: QR codes and suggestions may name one' },
  resource: 'Location',
  noun: 'location',
  plural: 'locations',
  access: { read: 'read', write: 'write' },
  schema: locationSchema,
  present: toLocationResponse,
  list: {
    operationId: 'listLocations',
    summary: 'List locations',
    query: listLocationsQuery,
    queryNotes: { sort: '`created_at` (default) or `name` (ignoring case); ties are broken by id' },
    json: locationOffsetPageSchema,
    run: ({ principal, query: { limit, offset, sort, order }, db }) =>
      listLocations(db, principal.businessId, { sort, order, limit, offset }),
  },
  create: {
    operationId: 'createLocation',
    summary: 'Create a location',
    description: 'A name the business already uses (ignoring case) is a 409.',
    body: locationBody,
    errors: [409],
    run: ({ principal, body, db }) => createLocation(db, principal.businessId, principal, body.name),
  },
  get: {
    operationId: 'getLocation',
    summary: 'Read a location',
    run: ({ principal, id, db }) => getLocation(db, principal.businessId, id),
  },
  update: {
    operationId: 'updateLocation',
    summary: 'Rename a location',
    description: 'A name another location of the business uses (ignoring case) is a 409.',
    body: locationBody,
    errors: [409],
    answer: 'The renamed location',
    run: ({ principal, body, id, db }) => changeLocation(db, principal.businessId, principal, id, body.name),
  },
  remove: {
    operationId: 'deleteLocation',
    summary: 'Delete a location',
    description:
      'A location still named by QR codes, suggestions or issues is a 409 that counts them, unless ' +
      '`force=true`: then their `location_id` becomes null (nothing else about them changes) and the ' +
      'location is deleted.',
    query: deleteLocationQuery,
    errors: [409],
    run: ({ principal, query, id, db }) => removeLocation(db, principal.businessId, principal, id, query.force),
  },
});
