import express, { type Request } from 'express';
import type { z } from 'zod';
import { findMalformedText } from '../shared/unicode.js';
import type { FieldErrors } from './dashboard.views.js';

/** The dashboard's forms: small urlencoded bodies, no nesting. */
export const formBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 30 });

/** A form's fields as strings (a repeated one keeps its last value); the form token is not a field. */
export function formFields(req: Request): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
    if (name === '_csrf') continue;
    const last = Array.isArray(value) ? (value.at(-1) as unknown) : value;
    if (typeof last === 'string') fields[name] = last;
  }
  return fields;
}

/** All the values of a field sent more than once (checkboxes), as strings. */
export function formList(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string');
}

/** What a person reads beside a field: the schema's words where they are meant for people. */
function message(label: string, issue: z.core.$ZodIssue): string {
  if (issue.message.startsWith('must ') || issue.message.startsWith('is ')) return `${label} ${issue.message}.`;
  switch (issue.code) {
    case 'too_small':
      return Number(issue.minimum) <= 1
        ? `${label} is required.`
        : `${label} must be at least ${issue.minimum} characters.`;
    case 'too_big':
      return `${label} must be at most ${issue.maximum} characters.`;
    case 'invalid_format':
      return `${label} does not look right.`;
    case 'invalid_value':
      return `Choose one of the options for ${label}.`;
    case 'invalid_type':
      return `${label} is required.`;
    default:
      return `${label} is not valid.`;
  }
}

export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * Parses a form's values with the JSON route's own schema, so both accept exactly the same input; a
 * refusal is a message per field, in words, by the field's `labels` (the first issue of each field).
 */
export function parseForm<S extends z.ZodType>(
  schema: S,
  values: Record<string, unknown>,
  labels: Record<string, string>,
): FormResult<z.output<S>> {
  const malformed = findMalformedText(values);
  if (malformed) {
    const field = String(malformed[0] ?? '');
    return { ok: false, errors: { [field]: `${labels[field] ?? 'This field'} must be valid text.` } };
  }
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!errors[field]) errors[field] = message(labels[field] ?? 'This field', issue);
  }
  return { ok: false, errors };
}
