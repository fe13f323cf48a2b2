import { Readable } from 'node:stream';
import { HttpError } from '../errors/http-error.js';
import { ok, type JsonReply } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { importReportSchema } from './import.responses.js';
import { IMPORTED_FIELDS } from './import.rows.js';
import { importQuery } from './import.schemas.js';
import { importCsv, type ImportReport } from './import.service.js';

const CSV_EXAMPLE =
  'content,status,priority,customer_name,customer_email,upvote_count,tags,created_at\r\n' +
  'More oat milk please,reviewing,high,Ana Lima,ana.lima@example.com,12,Drinks;Menu,2026-01-31T10:15:00.000Z\r\n';

const unsupported = () => new HttpError(415, 'The body must be CSV (Content-Type: text/csv)', 'UNSUPPORTED_MEDIA_TYPE');

/** All or nothing refused the file (a dry run: would refuse it): the report, as a 422, nothing written. */
const answer = (report: ImportReport, onError: 'all' | 'skip'): JsonReply =>
  onError === 'all' && report.failed > 0 ? { kind: 'json', status: 422, body: report } : ok(report);

export const importRoute = defineRoute({
  method: 'post',
  path: '/businesses/:business_id/imports',
  operationId: 'importCsv',
  summary: 'Import suggestions or issues from a CSV file',
  description:
    'The body is a CSV file (UTF-8, a header row first), read as it streams in, at most 50 MB ' +
    '(IMPORT_MAX_BYTES; past it a 413 and nothing written). Columns are found by header: ' +
    `our export's (${IMPORTED_FIELDS.suggestions.join(', ')} for suggestions; ` +
    `${IMPORTED_FIELDS.issues.join(', ')} for issues; its other columns are read past), or others mapped ` +
    'with `columns`. Headers neither known nor mapped are ignored and named in `unknown_columns`. ' +
    'All or nothing by default: any row with errors gives a 422 report naming each row (the header is ' +
    'row 1) and nothing is written; `on_error=skip` writes the good rows; `dry_run=true` reports without ' +
    'writing. Re-importing a row creates nothing (`skipped`): it is known by its `id` when the file is our ' +
    'export, else by a digest of kind, text, `created_at` and customer. `created_at`, status, priority, ' +
    'customer, votes and tags are kept (missing tags are made); sentiment is computed. One ' +
    '`import.completed` event, no event or webhook per item.',
  tag: 'Imports',
  guard: 'business',
  action: 'write',
  accessNote: 'Write keys may import: a move from another tool is often a script.',
  query: importQuery,
  queryNotes: {
    kind: '`suggestions` or `issues`: what every row of the file is',
    on_error: '`all` (default): any row with errors refuses the file; `skip`: the good rows are written',
    dry_run: '`true`: the report of what would be written, with nothing written',
    columns:
      'JSON: each field to the header that holds it in the file, e.g. `{"content":"Details","created_at":"Date"}`',
  },
  bodyMedia: {
    'text/csv': {
      schema: { type: 'string', contentMediaType: 'text/csv', description: 'UTF-8 CSV, header row first' },
      example: CSV_EXAMPLE,
    },
  },
  idempotency: false,
  errors: [413, 415],
  responses: [
    { status: 200, description: 'Imported (or, with `dry_run`, what would be)', json: importReportSchema },
    { status: 422, description: 'Rows with errors: nothing was written', json: importReportSchema },
  ],
  handler: async ({ req, principal, query, body, services }) => {
    // Invoked by the dashboard's form: the file's text, as the form posted it.
    const invoked: unknown = body;
    if (typeof invoked === 'string') {
      const report = await importCsv(
        services.db.pool,
        principal,
        Readable.from([invoked]),
        query,
        services.importMaxBytes,
      );
      return answer(report, query.onError);
    }
    const hasBody =
      req !== undefined &&
      (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
    if (hasBody && !req.is('text/csv')) throw unsupported();
    const source = hasBody ? req : Readable.from([]);
    const report = await importCsv(services.db.pool, principal, source, query, services.importMaxBytes);
    return answer(report, query.onError);
  },
});

export const importFeature: Feature = {
  tags: [{ name: 'Imports', description: 'Suggestions or issues brought in from a CSV file' }],
  routes: [importRoute],
};
