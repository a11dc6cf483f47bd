import { Ajv } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema, JsonSchemaDefinition } from '../../src';

let validators: { draft07: Ajv; draft2020: Ajv2020; strict2020: Ajv2020 } | undefined;

function metaValidators(): { draft07: Ajv; draft2020: Ajv2020; strict2020: Ajv2020 } {
  if (!validators) {
    const strict2020 = new Ajv2020({ strict: true, logger: false });
    (addFormats as unknown as (ajv: Ajv2020) => void)(strict2020);
    validators = { draft07: new Ajv({ strict: false }), draft2020: new Ajv2020({ strict: false }), strict2020 };
  }
  return validators;
}

/**
 * Problems of `schema` against the draft-07 and draft 2020-12 meta-schemas, and under Ajv's
 * strict mode (unknown keywords, formats, type/keyword mismatches). Empty when all is well.
 */
export function metaSchemaProblems(schema: JsonSchema): string[] {
  const { draft07, draft2020, strict2020 } = metaValidators();
  const problems: string[] = [];
  if (!draft07.validateSchema(schema)) problems.push(`draft-07: ${draft07.errorsText(draft07.errors)}`);
  if (!draft2020.validateSchema(schema)) problems.push(`2020-12: ${draft2020.errorsText(draft2020.errors)}`);
  try {
    strict2020.compile(schema);
  } catch (e) {
    problems.push(`strict compile: ${(e as Error).message}`);
  }
  return problems;
}

/** Freezes `value` and everything reachable from it (fixtures a test must not be able to change). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}

/** `definition` as an object schema, for reading its keywords; throws on a boolean schema or none. */
export function objectSchema(definition: JsonSchemaDefinition | undefined): JsonSchema {
  if (typeof definition !== 'object') throw new Error(`expected an object schema, got ${String(definition)}`);
  return definition;
}
