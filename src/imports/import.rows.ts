import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HttpError, type FieldError } from '../errors/http-error.js';
import { parseBody } from '../http/validation.js';
import { ISSUE_DESCRIPTION_MAX, ISSUE_TITLE_MAX } from '../issues/issue.schemas.js';
import {
  email,
  issueStatus,
  oneLine,
  optionalOneLine,
  optionalText,
  priority,
  suggestionStatus,
  text,
  uuid,
} from '../shared/schemas.js';
import { SUGGESTION_CONTENT_MAX } from '../suggestions/suggestion.columns.js';
import { CUSTOMER_NAME_MAX } from '../suggestions/suggestion.schemas.js';
import { tagName } from '../tags/tag.schemas.js';

export const IMPORT_KINDS = ['suggestions', 'issues'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** An empty cell is no value: the field's default (status, priority, now) or none (a customer). */
const cell = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === undefined ? undefined : value), schema.optional());

/** `2026-01-31T10:15:00.000Z`, or any instant Date reads with a zone; a date alone is midnight UTC. */
const instant = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), { params: { code: 'invalid_date' }, message: 'must be a date' })
  .transform((value) => new Date(value));

const count = z
  .string()
  .refine((value) => /^\d{1,9}$/.test(value), {
    params: { code: 'invalid_count' },
    message: 'must be a whole number, 0 or more',
  })
  .transform(Number);

/** The export's `tags` cell: names joined with `;` (src/exports/export.csv.ts). */
const tags = z
  .string()
  .transform((value) =>
    value
      .split(';')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  )
  .pipe(z.array(tagName).max(20));

const customer = {
  customer_name: cell(optionalOneLine(CUSTOMER_NAME_MAX)),
  customer_email: cell(email),
  tags: cell(tags),
  created_at: cell(instant),
  id: cell(uuid),
};

const ROW_SCHEMAS = {
  suggestions: z.object({
    content: text(SUGGESTION_CONTENT_MAX),
    status: cell(suggestionStatus),
    priority: cell(priority),
    upvote_count: cell(count),
    ...customer,
  }),
  issues: z.object({
    title: oneLine(ISSUE_TITLE_MAX),
    description: cell(optionalText(ISSUE_DESCRIPTION_MAX)),
    status: cell(issueStatus),
    priority: cell(priority),
    resolved_at: cell(instant),
    ...customer,
  }),
};

/**
 * The columns of our own export (SUGGESTION_LIST_FIELDS, ISSUE_LIST_FIELDS) an import reads, by kind;
 * `id` is the re-import key. The export's other columns are known but computed or the service's own
 * (sentiment, language and its lexicon, updated_at, merged_into, assignee_id): read past, never named
 * as unknown; an import computes language and sentiment as a create does.
 */
export const IMPORTED_FIELDS = {
  suggestions: Object.keys(ROW_SCHEMAS.suggestions.shape),
  issues: Object.keys(ROW_SCHEMAS.issues.shape),
} as const;
const KNOWN_UNUSED = {
  suggestions: ['sentiment', 'sentiment_score', 'language', 'sentiment_lexicon', 'updated_at', 'merged_into'],
  issues: ['language', 'assignee_id', 'updated_at'],
};

export type SuggestionInput = z.output<typeof ROW_SCHEMAS.suggestions>;
export type IssueInput = z.output<typeof ROW_SCHEMAS.issues>;
export type ImportedRow =
  { kind: 'suggestions'; key: string; item: SuggestionInput } | { kind: 'issues'; key: string; item: IssueInput };

export interface RowError {
  row: number;
  column: string;
  code: string;
  message: string;
}

/** Which header feeds each field, and the headers read by no field (the report names them). */
export interface ColumnPlan {
  headerOf: Record<string, string>;
  unknown: string[];
}

/** The header names: a field's own (our export's), or the one `columns` maps it to. */
export function planColumns(kind: ImportKind, headers: string[], mapping: Record<string, string>): ColumnPlan {
  const headerOf: Record<string, string> = {};
  for (const field of IMPORTED_FIELDS[kind]) {
    const header = mapping[field] ?? field;
    if (headers.includes(header)) headerOf[field] = header;
  }
  const used = new Set([...Object.values(headerOf), ...KNOWN_UNUSED[kind]]);
  return { headerOf, unknown: headers.filter((header) => !used.has(header)) };
}

/** The fields a mapping may name, by kind: what `columns` is checked against. */
export const mappableFields = (kind: ImportKind): readonly string[] => IMPORTED_FIELDS[kind];

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * Our export prefixes text a spreadsheet would run as a formula with `'` (export.csv.ts): the import
 * takes it off again, so an export imported back holds the text as it was.
 */
function unneutralised(value: string): string {
  if (value.charCodeAt(0) !== 0x27 || value.length < 2) return value;
  const next = String.fromCodePoint(value.codePointAt(1)!).normalize('NFKC').charAt(0);
  return TRIGGERS.has(next) ? value.slice(1) : value;
}

/**
 * The re-import key: our export's `id` when the file has one, else a digest of what makes a row the
 * same feedback (kind, text, created_at as sent, customer), per business by its unique index.
 */
function keyOf(kind: ImportKind, raw: Record<string, string>, id: string | undefined): string {
  if (id) return `id:${id}`;
  const text = kind === 'suggestions' ? [raw.content ?? ''] : [raw.title ?? '', raw.description ?? ''];
  const parts = [kind, ...text, raw.created_at ?? '', raw.customer_name ?? '', raw.customer_email ?? ''];
  return `sha256:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

/** One record of the file to an item, or its errors, each naming the row (header is row 1) and column. */
export function readRow(
  kind: ImportKind,
  plan: ColumnPlan,
  record: Record<string, string>,
  row: number,
): { ok: ImportedRow } | { errors: RowError[] } {
  const raw: Record<string, string> = {};
  for (const [field, header] of Object.entries(plan.headerOf)) {
    const value = record[header];
    if (value !== undefined) raw[field] = unneutralised(value);
  }
  try {
    const item = parseBody(ROW_SCHEMAS[kind], raw) as SuggestionInput & IssueInput;
    const key = keyOf(kind, raw, item.id);
    return { ok: kind === 'suggestions' ? { kind, key, item } : { kind, key, item } };
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { errors: (err.errors ?? []).map((error: FieldError) => rowError(plan, row, error)) };
  }
}

function rowError(plan: ColumnPlan, row: number, error: FieldError): RowError {
  const field = error.field.split('.')[0] ?? '';
  return { row, column: plan.headerOf[field] ?? field, code: error.code, message: error.message };
}
