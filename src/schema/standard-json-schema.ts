import type { JsonSchema } from '../model/json-schema';
import { isPlainObject } from '../utils/plain-object';
import type { StandardSchemaLike } from '../model/standard-schema';
import { describeThrown, ToolkitError } from '../errors/toolkit-error';
import { schemaProblems } from './schema-problems';

/** `~standard.jsonSchema` of Standard JSON Schema (zod 4.2+, arktype 2.1.28+). */
interface StandardJsonSchemaProps {
  readonly jsonSchema?: { readonly input?: (options: { readonly target: string }) => unknown } | undefined;
}

/** Each library's own converter, by vendor, for schemas without `~standard.jsonSchema`. */
const CONVERTERS: Readonly<Record<string, (schema: StandardSchemaLike) => unknown>> = {
  zod: (schema) => (require('zod') as { toJSONSchema: (s: unknown, o: object) => unknown }).toJSONSchema(schema, { io: 'input' }),
  valibot: (schema) => (require('@valibot/to-json-schema') as { toJsonSchema: (s: unknown) => unknown }).toJsonSchema(schema),
  arktype: (schema) => (schema as unknown as { toJsonSchema: () => unknown }).toJsonSchema(),
};

/** What to install (or call) when a vendor's converter is missing. */
const CONVERTER_NAMES: Readonly<Record<string, string>> = {
  zod: "zod 4's z.toJSONSchema",
  valibot: "@valibot/to-json-schema (run 'npm i @valibot/to-json-schema')",
  arktype: "arktype's toJsonSchema()",
};

/** The JSON Schema the library converts `schema` to, or the converter's failure. */
function convert(schema: StandardSchemaLike): unknown {
  const props = schema['~standard'] as StandardSchemaLike['~standard'] & StandardJsonSchemaProps;
  if (typeof props.jsonSchema?.input === 'function') return props.jsonSchema.input({ target: 'draft-2020-12' });
  const converter = CONVERTERS[props.vendor];
  if (converter === undefined) return undefined;
  return converter(schema);
}

/**
 * Converts a Standard Schema object (zod 4, valibot, arktype) to the JSON Schema a model sees,
 * with the library's own converter: Standard JSON Schema's `~standard.jsonSchema.input()` when the
 * schema has it, else by vendor (zod's `toJSONSchema`, `@valibot/to-json-schema`, arktype's
 * `toJsonSchema()`). The root `$schema` is dropped; the result is checked like any schema fragment.
 *
 * @example
 * standardJsonSchema(z.string().min(2), 'Weather.forecast parameter city'); // { type: 'string', minLength: 2 }
 * @throws ToolkitError `INVALID_DEFINITION` naming `owner` when the vendor has no converter, the
 *   converter fails (a transform, a custom check it cannot express) or its output is no valid JSON Schema.
 * @internal
 */
export function standardJsonSchema(schema: StandardSchemaLike, owner: string): JsonSchema {
  const vendor = schema['~standard'].vendor;
  let converted: unknown;
  try {
    converted = convert(schema);
  } catch (error) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner}: the ${vendor} schema cannot be converted to JSON Schema with ${CONVERTER_NAMES[vendor] ?? 'its converter'}: ${describeThrown(error)}.`,
      { cause: error },
    );
  }
  if (converted === undefined) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner}: the Standard Schema of vendor '${vendor.slice(0, 40)}' has no JSON Schema converter toolwright knows ` +
        '(zod 4, valibot with @valibot/to-json-schema, arktype, or any library with ~standard.jsonSchema). Give a JSON Schema instead.',
    );
  }
  if (!isPlainObject(converted)) {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: the ${vendor} converter gave no JSON Schema object.`);
  }
  const { $schema: _dialect, ...fragment } = converted as JsonSchema;
  const problems = schemaProblems(fragment);
  if (problems !== undefined) {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: the JSON Schema converted from the ${vendor} schema is not valid (${problems}).`);
  }
  return fragment;
}
