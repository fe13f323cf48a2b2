import fc from 'fast-check';

/** The subset of JSON Schema (2020-12, as OpenAPI 3.1 uses it) the generators understand. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

/** Resolves local `#/components/...` references against the document. */
export function resolver(document: unknown) {
  return function resolve(schema: JsonSchema): JsonSchema {
    if (!schema.$ref) return schema;
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        document,
      );
    return resolve(target as JsonSchema);
  };
}

const JUNK: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    'null',
    'true',
    "' OR 1=1 --",
    '\u0000',
    '%00',
    '../../etc/passwd',
    '😀'.repeat(3),
  ),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  return [];
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid({ version: [4, 7] });
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.format === 'date')
    return fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (schema.pattern === '^\\d+$' || schema.pattern === '^\\d{1,10}$') return fc.nat({ max: 200 }).map(String);
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, min + 40);
  return fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(max, min, 1), unit: 'grapheme' });
}

/**
 * Values that satisfy the schema (as far as these generators understand it), biased towards the
 * edges: enum members, bounds, empty and maximum-length strings.
 */
export function validValue(
  schema: JsonSchema,
  resolve: (s: JsonSchema) => JsonSchema,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return fc.oneof(...variants.map((v) => validValue(v, resolve, depth + 1)));
  if (s.allOf?.length) return validValue(Object.assign({}, ...s.allOf.map(resolve)) as JsonSchema, resolve, depth + 1);
  const types = typesOf(s).filter((t) => t !== 'null');
  const type = types[0];
  switch (type) {
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : min + 1000);
      return fc.oneof(fc.constant(min), fc.constant(max), fc.integer({ min, max: Math.min(max, min + 1_000_000) }));
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringArbitrary(s);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(validValue(s.items ?? {}, resolve, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 3) return fc.constant({});
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const shape = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validValue(v, resolve, depth + 1)]));
      return fc.record(shape, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
    }
    default:
      return JUNK;
  }
}

/** One value from the schema, or, some of the time, one that breaks it. */
export function anyValue(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 9, arbitrary: validValue(schema, resolve) }, { weight: 1, arbitrary: JUNK });
}

/**
 * A JSON body for the schema: mostly valid, sometimes with one field broken, a required field
 * missing or an unknown field added, and now and then not an object at all.
 */
export function bodyValue(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const props = Object.keys(s.properties ?? {});
  const valid = validValue(s, resolve) as fc.Arbitrary<Record<string, unknown>>;
  const mutated = fc
    .tuple(valid, fc.constantFrom(...(props.length ? props : ['x'])), JUNK, fc.constantFrom('break', 'drop', 'extra'))
    .map(([body, key, junk, how]) => {
      const copy = { ...body };
      if (how === 'break') copy[key] = junk;
      else if (how === 'drop') delete copy[key];
      else copy[`unexpected_${key}`] = junk;
      return copy;
    });
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: JUNK });
}

/** Query strings carry text: numbers and booleans are sent the way a URL would carry them. */
export function asQueryValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/** A request part no well-behaved client sends: the malformed-input property draws one per request. */
export type Malformed =
  | { kind: 'path'; segment: string }
  | { kind: 'query'; query: string }
  | { kind: 'encoding'; encoding: string; bytes: Buffer }
  | { kind: 'unicode'; before: string; bytes: Buffer; after: string; breaksUnicode: boolean; pick: number };

/** Percent-encodings that do not decode to UTF-8, and a few that do but are odd. */
const BAD_PERCENT = ['%', '%Z', '%ZZ', '%E0%A4%A', '%ff', '%C0%AF', '%ED%A0%80', '%F4%90%80%80', '%%', '%u00e9'];
const ODD_PERCENT = ['%00', '%2F', '%2e%2e', '%EF%BB%BF', '%E2%80%8B'];

/** Bytes placed inside a JSON string, and whether they make it text that is not valid Unicode. */
const TEXT_BYTES: [string, Buffer, boolean][] = [
  ['lone high surrogate', Buffer.from('\\ud800'), true],
  ['lone low surrogate', Buffer.from('\\udfff'), true],
  ['reversed pair', Buffer.from('\\ude00\\ud83d'), true],
  ['stray continuation byte', Buffer.from([0x80]), true],
  ['truncated sequence', Buffer.from([0xe2, 0x82]), true],
  ['overlong slash', Buffer.from([0xc0, 0xaf]), true],
  ['encoded surrogate', Buffer.from([0xed, 0xa0, 0x80]), true],
  ['0xFF', Buffer.from([0xff]), true],
  ['zero-width spaces', Buffer.from('\u200b\u200b'), false],
  ['a valid pair as escapes', Buffer.from('\\ud83d\\ude00'), false],
  ['NUL', Buffer.from('\\u0000'), false],
  ['bidi override', Buffer.from('\u202e'), false],
];

export function malformedRequest(): fc.Arbitrary<Malformed> {
  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...BAD_PERCENT) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_PERCENT) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...BAD_PERCENT), fc.string({ maxLength: 4 }))
        .map(([a, b]) => `${encodeURIComponent(b)}${a}`),
    },
  );
  const randomBytes = fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes));
  return fc.oneof(
    segment.map((s) => ({ kind: 'path' as const, segment: s })),
    fc
      .tuple(
        fc.constantFrom('q', 'limit', 'status', 'since', 'format', 'x'),
        fc.constantFrom(...BAD_PERCENT, ...ODD_PERCENT),
      )
      .map(([name, value]) => ({ kind: 'query' as const, query: `${name}=${value}` })),
    fc
      .record({
        encoding: fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'x-gzip', 'GZIP', 'gzip, identity', 'identity'),
        bytes: fc.oneof(randomBytes, fc.constant(Buffer.from('{"content":"plain"}'))),
      })
      .map((r) => ({ kind: 'encoding' as const, ...r })),
    fc
      .record({
        text: fc.constantFrom(...TEXT_BYTES),
        before: fc.constantFrom('', 'Table ', 'caf'),
        after: fc.constantFrom('', ' 4', 'é'),
        pick: fc.nat(),
      })
      .map(({ text: [, bytes, breaksUnicode], before, after, pick }) => ({
        kind: 'unicode' as const,
        before,
        bytes,
        after,
        breaksUnicode,
        pick,
      })),
  );
}
