import type { Feature, OperationSpec } from '../openapi/operation.js';
import { issueExportSchema, suggestionExportSchema } from './export.responses.js';
import { EXPORT_LIMIT, exportIssuesQuery, exportSuggestionsQuery } from './export.schemas.js';
import { issueExport, suggestionExport } from './export.service.js';

const notes = {
  since: 'Created at or after this instant (a date alone: midnight UTC)',
  until: 'Created at or before this instant (a date alone: the end of that day, UTC); not before `since`',
  format: '`json` (default) or `csv`',
};

function exportOperation(
  resource: typeof suggestionExport | typeof issueExport,
  query: OperationSpec['query'],
  json: OperationSpec['responses'][number]['json'],
): OperationSpec {
  const name = resource.name;
  return {
    method: 'get',
    path: `/api/v1/export/${name}`,
    operationId: `export${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    summary: `Export ${name} as JSON or CSV`,
    description:
      `The first ${EXPORT_LIMIT} matching ${name}, newest first, streamed. ` +
      'X-Total-Count and X-Export-Truncated say whether there were more.',
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
          'text/csv': {
            type: 'string',
            description:
              `RFC 4180, CRLF line ends, no byte-order mark. Header row: ${resource.fields.join(', ')}. ` +
              "Text a spreadsheet would run as a formula is prefixed with `'`.",
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
  };
}

export const exportDocs: Feature = {
  tags: [{ name: 'Exports', description: 'Every suggestion or issue at once, as JSON or CSV (`/api/v1`)' }],
  operations: [
    exportOperation(suggestionExport, exportSuggestionsQuery, suggestionExportSchema),
    exportOperation(issueExport, exportIssuesQuery, issueExportSchema),
  ],
};
