import express, { Router, type Response } from 'express';
import type { Reply } from '../http/reply.js';
import type { Services } from '../http/route.js';
import { importRoute } from '../imports/import.routes.js';
import { t } from '../shared/messages.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { assertMayRun, mountForm, type FormAction, type PageCall } from './dashboard.actions.js';
import { sendView } from './dashboard.views.js';

const path = '/b/:business_id/import';

/**
 * The file's text comes in the form (a textarea, which works without JavaScript): this page reads
 * forms of up to 5 MB, more than the dashboard's other forms (16 KB). Larger files go to the API's
 * POST .../imports, which streams up to IMPORT_MAX_BYTES.
 */
const PAGE_LIMIT = '5mb';
const largeForm = express.urlencoded({ extended: false, limit: PAGE_LIMIT, parameterLimit: 10 });

interface ImportView {
  values: { kind: string; columns: string; csv: string };
  report?: unknown;
  status?: number;
}

function show(res: Response, who: SignedInMember, status: number, view: ImportView) {
  sendView(res, status, 'import', {
    ...memberFrame(who, t('app.import.title'), 'settings'),
    ...view,
  });
}

const valuesOf = (fields: Record<string, string>) => ({
  kind: fields.kind === 'issues' ? 'issues' : 'suggestions',
  columns: fields.columns ?? '',
  csv: fields.csv ?? '',
});

/** The form's fields as the operation's query: a dry run unless "Import" was pressed. */
const queryOf = (fields: Record<string, string>) => {
  const { kind, columns } = valuesOf(fields);
  return {
    kind,
    dry_run: fields.dry_run === 'false' ? 'false' : 'true',
    ...(columns.trim() ? { columns: columns.trim() } : {}),
  };
};

/** The report is shown once, beside the form kept as sent, so "Import" posts the same text. */
const answer = async ({ res, who }: PageCall, reply: Reply) => {
  const report = reply.kind === 'json' ? reply.body : undefined;
  const status = reply.kind === 'json' ? reply.status : 200;
  show(res, who, status, { values: valuesOf(res.locals.importFields as Record<string, string>), report, status });
  return Promise.resolve();
};

/** The Import page (issue 44): a dry run first, then the import, both the API's operation. */
export const IMPORT_FORMS: FormAction[] = [
  {
    path,
    runs: importRoute,
    query: (fields, { res }) => {
      res.locals.importFields = fields;
      return queryOf(fields);
    },
    body: (fields) => fields.csv ?? '',
    labels: { columns: 'app.import.columns', kind: 'app.import.kind' },
    done: () => '',
    answer,
    again: ({ res, who }, refused) => {
      show(res, who, refused.status, { values: valuesOf(refused.values) });
      return Promise.resolve();
    },
  },
];

export function importPages(services: Services): Router {
  const router = Router();
  router.get(path, requireMember(services), (_req, res) => {
    const who = memberOf(res);
    assertMayRun(who.principal, importRoute);
    show(res, who, 200, { values: { kind: 'suggestions', columns: '', csv: '' } });
  });
  // the member first, so no one else has a 5 MB form read
  router.post(path, requireMember(services), largeForm);
  for (const action of IMPORT_FORMS) mountForm(router, services, action);
  return router;
}
