import { Router, type Request, type Response } from 'express';
import type pg from 'pg';
import type { z } from 'zod';
import { principalOf } from '../http/auth.js';
import { parseQuery } from '../http/validation.js';
import { csvEncoder } from './export.csv.js';
import { jsonEncoder } from './export.json.js';
import { exportIssuesQuery, exportSuggestionsQuery, type ExportFormat } from './export.schemas.js';
import { issueExport, openExport, suggestionExport, type ExportResource, type ExportRun } from './export.service.js';
import { streamExport } from './export.writer.js';

/** /api/v1/export/{suggestions,issues}: read scope, the business from the API key (spec 4.4). */
export function exportRoutesV1(pool: pg.Pool): Router {
  const router = Router();
  router.get('/export/suggestions', exportHandler(pool, suggestionExport, exportSuggestionsQuery));
  router.get('/export/issues', exportHandler(pool, issueExport, exportIssuesQuery));
  return router;
}

function exportHandler<Filter>(
  pool: pg.Pool,
  resource: ExportResource<Filter>,
  query: z.ZodType<{ format: ExportFormat; filter: Filter }>,
) {
  return async (req: Request, res: Response) => {
    const { businessId } = principalOf(req);
    const { format, filter } = parseQuery(query, req.query);
    // Until the first write, any failure is still an ordinary JSON error response.
    const run = await openExport(pool, resource, businessId, filter);
    const encoder = format === 'csv' ? csvEncoder(resource.fields) : jsonEncoder(resource.fields, run);
    const result = await streamExport(res, run, encoder, exportHeaders(run, format, resource.name));
    if (!result.completed) {
      req.log.info({ export: resource.name, format, written: result.written }, 'export stopped: client went away');
    }
  };
}

function exportHeaders(run: ExportRun, format: ExportFormat, name: string): Record<string, string> {
  const counts = { 'X-Total-Count': String(run.total), 'X-Export-Truncated': String(run.truncated) };
  if (format === 'json') return { ...counts, 'Content-Type': 'application/json; charset=utf-8' };
  const day = run.exportedAt.toISOString().slice(0, 10);
  return {
    ...counts,
    'Content-Type': 'text/csv; charset=utf-8',
    // Quoted by hand (res.attachment() leaves a token-safe name bare): the name is a constant and a date.
    'Content-Disposition': `attachment; filename="${name}-${day}.csv"`,
  };
}
