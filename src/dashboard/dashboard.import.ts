import { Router, type Response } from 'express';
import type { Reply } from '../http/reply.js';
import type { Services } from '../http/route.js';
import { importRoute } from '../imports/import.routes.js';
import { t } from '../shared/messages.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { assertMayRun, mountForm, type FormAction, type PageCall } from './dashboard.actions.js';
import { sendView } from './dashboard.views.js';

const path = '/b/:business_id/import';

/**
 * The file comes as multipart/form-data (an `<input type=file>`, which works without JavaScript), or
 * pasted in the textarea beside it. The dashboard reads a form whole, in memory, so this page takes
 * files of up to 5 MB (multipartBody's bound; past it the error page's 413), not IMPORT_MAX_BYTES
 * (50 MB): larger files go to the API's POST .../imports, which streams them. When IMPORT_MAX_BYTES is
 * set lower, the operation's own bound refuses first.
 */
export const PAGE_MAX_BYTES = 5 * 1024 * 1024;

interface ImportView {
  values: { kind: string; columns: string; csv: string };
  report?: unknown;
  status?: number;
}

function show(res: Response, who: SignedInMember, status: number, view: ImportView) {
  sendView(res, status, 'import', {
    ...memberFrame(who, t('app.import.title'), 'settings'),
    ...view,
    maxMb: PAGE_MAX_BYTES / (1024 * 1024),
  });
}

/**
 * The file's text: the chosen file, else the pasted text. A browser sends an empty part for a file
 * input left empty, so an empty file counts as none.
 */
const csvOf = (fields: Record<string, string>, files: Record<string, Buffer>) => {
  const file = files.file;
  return file && file.length > 0 ? file.toString('utf8') : (fields.csv ?? '');
};

const valuesOf = (fields: Record<string, string>, csv: string) => ({
  kind: fields.kind === 'issues' ? 'issues' : 'suggestions',
  columns: fields.columns ?? '',
  csv,
});

/** The form's fields as the operation's query: a dry run unless "Import" was pressed. */
const queryOf = (fields: Record<string, string>) => {
  const columns = (fields.columns ?? '').trim();
  return {
    kind: fields.kind === 'issues' ? 'issues' : 'suggestions',
    dry_run: fields.dry_run === 'false' ? 'false' : 'true',
    ...(columns ? { columns } : {}),
  };
};

/**
 * The report is shown once, beside the form, with the file's text carried in the textarea: "Import"
 * posts that text, so the file need not be chosen again. Carrying it is safe because nothing is
 * trusted from the dry run: Import runs the whole operation again on what it is sent (access, every
 * row's checks, all or nothing), and the text is the member's own, shown back escaped on their page.
 */
const answer = async ({ res, who, files }: PageCall, reply: Reply) => {
  const report = reply.kind === 'json' ? reply.body : undefined;
  const status = reply.kind === 'json' ? reply.status : 200;
  const fields = res.locals.importFields as Record<string, string>;
  show(res, who, status, { values: valuesOf(fields, csvOf(fields, files)), report, status });
  return Promise.resolve();
};

/** The Import page (issue 44): a dry run first, then the import, both the API's operation. */
export const IMPORT_FORMS: FormAction[] = [
  {
    path,
    runs: importRoute,
    upload: { maxBytes: PAGE_MAX_BYTES },
    query: (fields, { res }) => {
      res.locals.importFields = fields;
      return queryOf(fields);
    },
    body: (fields, { files }) => csvOf(fields, files),
    labels: { columns: 'app.import.columns', kind: 'app.import.kind' },
    done: () => '',
    answer,
    again: ({ res, who, files }, refused) => {
      show(res, who, refused.status, { values: valuesOf(refused.values, csvOf(refused.values, files)) });
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
  // mountForm reads the multipart body after requireMember: no one else has a 5 MB form read
  for (const action of IMPORT_FORMS) mountForm(router, services, action);
  return router;
}
