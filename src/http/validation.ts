import type { z } from 'zod';
import { invalidInput, type FieldError } from '../errors/http-error.js';
import { findMalformedText } from '../shared/unicode.js';

type Issue = z.core.$ZodIssue;

/** The value an issue is about, found in the input by the issue's path. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * An issue's code, for a reader to word (locales/en.json, `validation.<code>`), with the values the
 * words need. A refinement names its own code in its params (`{ code: 'one_line' }`).
 */
function codeOf(issue: Issue, input: unknown): Pick<FieldError, 'code' | 'params'> {
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? { code: 'required' } : { code: 'too_short', params: { min } };
      return { code: issue.origin === 'array' ? 'too_few' : 'too_small', params: { min } };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      const code = issue.origin === 'string' ? 'too_long' : issue.origin === 'array' ? 'too_many' : 'too_big';
      return { code, params: { max } };
    }
    case 'invalid_format':
      return { code: issue.format === 'email' ? 'invalid_email' : 'invalid_format' };
    case 'invalid_value':
      return { code: 'invalid_choice' };
    case 'invalid_type':
      return { code: valueAt(input, issue.path) === undefined ? 'required' : 'invalid_type' };
    case 'custom': {
      const { code, ...params } = (issue.params ?? {}) as { code?: string } & Record<string, string | number>;
      return Object.keys(params).length > 0 ? { code: code ?? 'invalid', params } : { code: code ?? 'invalid' };
    }
    default:
      return { code: 'invalid' };
  }
}

const fieldOf = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** Each issue as data; an unknown key is one error per key. */
function fieldErrors(error: z.ZodError, input: unknown): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: fieldOf([...issue.path, key]), code: 'unknown', message: 'unknown' }));
    }
    return [{ field: fieldOf(issue.path), message: issue.message, ...codeOf(issue, input) }];
  });
}

/** The message's words: each issue by its path, unknown keys together. */
function describe(error: z.ZodError, noun: string): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown ${noun}(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
      const path = issue.path.length > 0 ? issue.path.join('.') : '(body)';
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Text that is not valid Unicode (a lone surrogate, or bytes that were not UTF-8) in any field, key
 * or parameter: the one rule, checked before any schema so no field can forget it.
 */
function malformedText(input: unknown): FieldError | undefined {
  const path = findMalformedText(input);
  if (!path) return undefined;
  return {
    field: fieldOf(path),
    code: 'malformed_text',
    message: 'must be valid Unicode text (it holds a lone surrogate or bytes that are not UTF-8)',
  };
}

function parse<S extends z.ZodType>(schema: S, value: unknown, input: 'body' | 'query'): z.output<S> {
  const malformed = malformedText(value);
  if (malformed) {
    throw invalidInput([malformed], { input, detail: `${malformed.field || '(body)'}: ${malformed.message}` });
  }
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const detail = describe(parsed.error, input === 'query' ? 'parameter' : 'field');
    throw invalidInput(fieldErrors(parsed.error, value), { input, detail });
  }
  return parsed.data;
}

/** Parses query parameters; failures are 400s whose message begins `Query failed:` (spec 7). */
export const parseQuery = <S extends z.ZodType>(schema: S, query: unknown): z.output<S> =>
  parse(schema, query, 'query');

/** Parses a JSON body; failures are 400s naming each offending field, in the message and in `errors`. */
export const parseBody = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> => parse(schema, body, 'body');
