import { describe, expect, it } from 'vitest';
import { DASHBOARD_FORMS } from '../../src/dashboard/dashboard.pages.js';
import { ROUTES } from '../../src/routes.js';
import { hasMessage } from '../../src/shared/messages.js';
import { businessRouteNames } from '../support/role-matrix.js';

/**
 * The page table against the route table: a dashboard form runs a declared operation of the business
 * family, so its access, parsing and 404 are the route's, and the role matrix
 * (test/api/business-access.test.ts), which has a row for every such route, covers the form too.
 */
describe('the dashboard forms and the declared routes', () => {
  it('When the forms are listed, then each runs a declared operation of the business family', () => {
    const declared = new Set(ROUTES);
    const undeclared = DASHBOARD_FORMS.filter((form) => !declared.has(form.runs)).map((form) => form.path);
    expect(undeclared).toEqual([]);
    expect(DASHBOARD_FORMS.filter((form) => form.runs.guard !== 'business').map((form) => form.path)).toEqual([]);
    const inMatrix = new Set(businessRouteNames(ROUTES));
    expect(businessRouteNames(DASHBOARD_FORMS.map((form) => form.runs)).every((name) => inMatrix.has(name))).toBe(true);
  });

  it('When a form names its fields, then every label is a message of the catalogue', () => {
    const missing = DASHBOARD_FORMS.flatMap((form) => Object.values(form.labels ?? {})).filter(
      (key) => !hasMessage(key),
    );
    expect(missing).toEqual([]);
  });
});
