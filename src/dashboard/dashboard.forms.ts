import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { HttpError } from '../errors/http-error.js';
import type { Route } from '../http/route.js';
import { parseBody } from '../http/validation.js';
import { hasMessage, t } from '../shared/messages.js';
import type { FieldErrors } from './dashboard.views.js';

/** The dashboard's forms: small urlencoded bodies, no nesting. */
export const formBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 30 });

/**
 * A form with a file (`enctype="multipart/form-data"`): its bytes read up to `maxBytes` plus room for
 * the other fields, then parsed by Node's own `Response.formData()` (undici's multipart parser, so no
 * package of ours). The text fields become `req.body` as a urlencoded form's would; the files are kept
 * in `res.locals.files`, by field name. A body past the bound is the error page's 413.
 */
export function multipartBody(maxBytes: number): RequestHandler {
  const read = express.raw({ type: 'multipart/form-data', limit: maxBytes + 64 * 1024 });
  return (req, res, next) => {
    read(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (!Buffer.isBuffer(req.body))
        return next(new HttpError(400, 'Send the form as multipart/form-data', 'BAD_REQUEST'));
      const contentType = req.headers['content-type'] ?? '';
      new Response(req.body, { headers: { 'content-type': contentType } })
        .formData()
        .then(async (form) => {
          const fields: Record<string, string> = {};
          const files: Record<string, Buffer> = {};
          for (const [name, value] of form.entries()) {
            if (typeof value === 'string') fields[name] = value;
            else files[name] = Buffer.from(await value.arrayBuffer());
          }
          req.body = fields;
          res.locals.files = files;
          next();
        })
        .catch(() => next(new HttpError(400, 'The form could not be read', 'BAD_REQUEST')));
    });
  };
}

/** The files a multipart form sent (none for any other form). */
export const filesOf = (res: Response): Record<string, Buffer> =>
  (res.locals.files as Record<string, Buffer> | undefined) ?? {};

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

/** The named fields as an operation's body (or a form's values shown again): a field not sent is ''. */
export function fieldsOf<K extends string>(fields: Record<string, string>, names: readonly K[]): Record<K, string> {
  return Object.fromEntries(names.map((name) => [name, fields[name] ?? ''])) as Record<K, string>;
}

const RUNS = Symbol('the declared operations a post runs');

/**
 * Names the declared operations a post's handler runs, on the handler itself: the page table that
 * test/api/dashboard-forms.test.ts reads from the mounted routers and holds against the route table.
 */
export function runsOperations<H extends RequestHandler>(handler: H, ...operations: Route[]): H {
  return Object.assign(handler, { [RUNS]: operations });
}

/** The declared operations a post's handler names (none for a hand-wired one). */
export const operationsOf = (handler: unknown): readonly Route[] =>
  (handler as { [RUNS]?: Route[] } | undefined)?.[RUNS] ?? [];

/** All the values of a field sent more than once (checkboxes), as strings. */
export function formList(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string');
}

export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * Parses a form's values with the JSON route's own schema (parseBody), so both accept exactly the same
 * input; a refusal is words per field from the catalogue by the code (`validation.<code>`),
 * the first of each field, naming the field by its label (a catalogue key, or words already).
 */
export function parseForm<S extends z.ZodType>(
  schema: S,
  values: Record<string, unknown>,
  labels: Record<string, string>,
): FormResult<z.output<S>> {
  try {
    return { ok: true, data: parseBody(schema, values) };
  } catch (err) {
    if (!(err instanceof HttpError) || !err.errors || err.errors.length === 0) throw err;
    const errors: FieldErrors = {};
    for (const error of err.errors) {
      const field = error.field.split('.')[0] ?? '';
      if (errors[field] !== undefined) continue;
      const label = labels[field] ?? 'field.this';
      const key = hasMessage(`validation.${error.code}`) ? `validation.${error.code}` : 'validation.invalid';
      errors[field] = t(key, { ...error.params, label: hasMessage(label) ? t(label) : label });
    }
    return { ok: false, errors };
  }
}
