import type { Request } from 'express';
import type { z } from 'zod';
import { stream } from '../http/reply.js';
import { defineRoute, type Feature } from '../http/route.js';
import { exampleOf } from '../shared/responses.js';
import { csvEncoder } from './export.csv.js';
import { jsonEncoder } from './export.json.js';
import { issueExportSchema, suggestionExportSchema } from './export.responses.js';
import { EXPORT_LIMIT, exportIssuesQuery, exportSuggestionsQuery, type ExportFormat } from './export.schemas.js';
import { issueExport, openExport, suggestionExport, type ExportResource, type ExportRun } from './export.service.js';
import { streamExport } from './export.writer.js';

const notes = {
  since: 'Created at or after this instant (a date alone: midnight UTC)',
  until: 'Created at or before this instant (a date alone: the end of that day, UTC); not before `since`',
  format:
    '`json` or `csv`. Without it, the `Accept` header decides (`text/csv` gives CSV, anything else JSON); ' +
    'when both are given, `format` wins',
  bom:
    '`true`: a CSV export starts with the UTF-8 byte-order mark (EF BB BF), so that Excel reads accents and ' +
    'emoji as UTF-8. `false` by default. A JSON export never has one (RFC 8259)',
};

const MEDIA_TYPES = { json: 'application/json', csv: 'text/csv' } as const;

/**
 * `format` when given; otherwise what the client accepts: CSV only when it prefers `text/csv`, else JSON
 * (and JSON when invoked without a request).
 */
function chosenFormat(req: Request | undefined, format: ExportFormat | undefined): ExportFormat {
  if (format) return format;
  return req?.accepts([MEDIA_TYPES.json, MEDIA_TYPES.csv]) === MEDIA_TYPES.csv ? 'csv' : 'json';
}

/** The JSON example's records, through the very encoder a CSV export uses: one example, two media types. */
function csvExample(fields: readonly string[], json: z.ZodType): string {
  const { data } = exampleOf(json) as { data: Record<string, unknown>[] };
  const encoder = csvEncoder(fields);
  return encoder.begin() + encoder.encode(data.map((item) => fields.map((field) => item[field]))) + encoder.end();
}

/** GET /api/v1/export/<resource>: read scope, the business from the API key (spec 4.4). */
function exportRoute<Filter>(
  resource: ExportResource<Filter>,
  query: z.ZodType<{ format?: ExportFormat; bom: boolean; filter: Filter }>,
  json: z.ZodType,
) {
  const name = resource.name;
  return defineRoute({
    method: 'get',
    path: `/api/v1/export/${name}`,
    operationId: `export${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    summary: `Export ${name} as JSON or CSV`,
    description:
      `The first ${EXPORT_LIMIT} matching ${name}, newest first, streamed. ` +
      'X-Total-Count and X-Export-Truncated say whether there were more. ' +
      'CSV with `format=csv` or `Accept: text/csv` (`format` wins when both are given); JSON otherwise.',
    tag: 'Exports',
    guard: 'api_key',
    action: 'read',
    query,
    queryNotes: notes,
    responses: [
      {
        status: 200,
        description: `The ${name}`,
        json,
        media: {
          [MEDIA_TYPES.csv]: {
            schema: {
              type: 'string',
              contentMediaType: 'text/csv',
              description:
                `UTF-8, RFC 4180, CRLF line ends, a byte-order mark only with \`bom=true\`. ` +
                `Header row: ${resource.fields.join(', ')}. ` +
                "Text a spreadsheet would run as a formula is prefixed with `'`.",
            },
            example: csvExample(resource.fields, json),
          },
        },
        headers: {
          'X-Total-Count': {
            description: `Every matching record, including any past the ${EXPORT_LIMIT} sent`,
            required: true,
            schema: { type: 'integer', minimum: 0 },
          },
          'X-Export-Truncated': {
            description: `true when more than ${EXPORT_LIMIT} records matched`,
            required: true,
            schema: { type: 'string', enum: ['true', 'false'] },
          },
          'Content-Disposition': {
            description: `CSV only: \`attachment; filename="${name}-YYYY-MM-DD.csv"\``,
          },
        },
      },
    ],
    handler: async ({ req, principal, query, services }) => {
      const { filter } = query;
      const format = chosenFormat(req, query.format);
      // Until the first write, any failure is still an ordinary JSON error response (or, on a
      // replica, a read on the primary instead).
      const run = await services.reads.read(principal, 'export', (pool) =>
        openExport(pool, resource, principal.businessId, filter),
      );
      const encoder =
        format === 'csv' ? csvEncoder(resource.fields, { bom: query.bom }) : jsonEncoder(resource.fields, run);
      return stream(async (res) => {
        const result = await streamExport(res, run, encoder, exportHeaders(run, format, name));
        if (!result.completed) {
          res.req.log.info({ export: name, format, written: result.written }, 'export stopped: client went away');
        }
      });
    },
  });
}

function exportHeaders(run: ExportRun, format: ExportFormat, name: string): Record<string, string> {
  // The same URL answers JSON or CSV depending on Accept: caches must key on it.
  const counts = { 'X-Total-Count': String(run.total), 'X-Export-Truncated': String(run.truncated), Vary: 'Accept' };
  if (format === 'json') return { ...counts, 'Content-Type': 'application/json; charset=utf-8' };
  const day = run.exportedAt.toISOString().slice(0, 10);
  return {
    ...counts,
    'Content-Type': 'text/csv; charset=utf-8',
    // Quoted by hand (res.attachment() leaves a token-safe name bare): the name is a constant and a date.
    'Content-Disposition': `attachment; filename="${name}-${day}.csv"`,
  };
}

export const exportFeature: Feature = {
  tags: [{ name: 'Exports', description: 'Every suggestion or issue at once, as JSON or CSV (`/api/v1`)' }],
  routes: [
    exportRoute(suggestionExport, exportSuggestionsQuery, suggestionExportSchema),
    exportRoute(issueExport, exportIssuesQuery, issueExportSchema),
  ],
};
