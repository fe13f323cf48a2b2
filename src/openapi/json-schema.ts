import { z } from 'zod';
import type { JsonSchema } from '../http/route.js';

const TARGET = 'draft-2020-12';

/** OpenAPI 3.1 schemas are JSON Schema 2020-12 without a `$schema` or `$id` of their own. */
function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** The JSON Schema 2020-12 formats zod emits (see its `format` docs). */
const STANDARD_FORMATS = new Set(['date-time', 'date', 'time', 'duration', 'email', 'uri', 'uuid', 'ipv4', 'ipv6']);

type Override = NonNullable<z.core.ToJSONSchemaParams['override']>;

/**
 * Keeps the document readable without making it say less than the server checks: a format (uuid,
 * date-time, email) keeps zod's pattern beside it, because the server checks exactly that pattern
 * (a UUID's variant bits, an email without quoted parts, a date-time with seconds and a zone), which
 * the format alone leaves to each validator. The safe-integer bounds zod adds to every integer say nothing.
 */
const tidy: Override = ({ jsonSchema }) => {
  // zod names some checks as formats of its own (`starts_with`): their pattern says it in JSON Schema.
  if (jsonSchema.format && !STANDARD_FORMATS.has(jsonSchema.format)) delete jsonSchema.format;
  // A record keyed by an enum has every key: an object with those properties says so plainly.
  const keys = (jsonSchema.propertyNames as { enum?: string[] } | undefined)?.enum;
  if (keys && typeof jsonSchema.additionalProperties === 'object') {
    const value = jsonSchema.additionalProperties;
    jsonSchema.properties = Object.fromEntries(keys.map((key) => [key, value]));
    jsonSchema.required = keys;
    jsonSchema.additionalProperties = false;
    delete jsonSchema.propertyNames;
  }
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
};

/**
 * What the client sends, described from the input side of the schemas the routes parse with. Two
 * things zod leaves out on that side are put back:
 * - a query string is text, so a whole number is parsed from a string and piped into a number: on
 *   the wire it is that number, so its bounds (page size 1..100) are what the document shows;
 * - defaults of such values (zod shows only defaults the input type can hold).
 */
const describeInput: Override = (ctx) => {
  const schema = ctx.zodSchema;
  if (schema instanceof z.ZodPipe && schema.out instanceof z.ZodNumber) {
    const number = bare(z.toJSONSchema(schema.out, { target: TARGET, override: tidy }));
    for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[key];
    Object.assign(ctx.jsonSchema, number);
  }
  if (schema instanceof z.ZodDefault && ctx.jsonSchema.default === undefined) {
    ctx.jsonSchema.default = schema.def.defaultValue;
  }
  tidy(ctx);
};

/** A request body or query string, as the client writes it. */
export function inputSchema(schema: z.ZodType): JsonSchema {
  return bare(
    z.toJSONSchema(schema, {
      io: 'input',
      target: TARGET,
      unrepresentable: 'any',
      override: describeInput,
    }),
  );
}

/** The properties of a query schema (an object, possibly refined or transformed as a whole). */
export function queryProperties(schema: z.ZodType): { name: string; schema: JsonSchema; required: boolean }[] {
  const object = inputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  if (!object.properties) throw new Error('a query schema must be an object');
  return Object.entries(object.properties).map(([name, property]) => ({
    name,
    schema: property,
    required: object.required?.includes(name) ?? false,
  }));
}

/** The component name of a response schema: the `id` in its metadata. */
export function componentId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error(`a response schema needs an id in its metadata: ${JSON.stringify(z.toJSONSchema(schema))}`);
  return id;
}

/**
 * Every schema with an id (the response shapes, in `*.responses.ts` and http/responses.ts), as
 * components referring to each other, described from their output side: what the server sends.
 */
export function responseComponents(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: 'output',
    target: TARGET,
    unrepresentable: 'throw',
    override: tidy,
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas)
      .map(([id, schema]) => [id, bare(schema as JsonSchema)] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
