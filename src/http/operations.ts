import type { Feature, Route } from './route.js';

/**
 * A feature's declared operation, by its operationId: what a page's form runs (Route.invoke). Found
 * when the page module loads, so a renamed or removed operation stops the service from starting.
 */
export function operation(feature: Feature, operationId: string): Route {
  const route = feature.routes.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`No declared operation ${operationId}`);
  return route;
}
