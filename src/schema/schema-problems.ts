import type Ajv from 'ajv/dist/core';
import type { JsonSchema } from '../model/json-schema';
import { schemaDialect, type SchemaDialect } from './schema-dialect';

const metaValidators: { [D in SchemaDialect]?: Ajv } = {};
const checkedSchemas = new Map<string, string | undefined>();
/** Verdicts on frozen schemas, by the schema object itself: held no longer than the schema. */
const frozenVerdicts = new WeakMap<object, string | undefined>();
/** The longest JSON text kept as a key of `checkedSchemas`: a larger schema is checked again rather than held. */
const MAX_KEY_CHARS = 2048;

/**
 * The shared meta-schema validator of `dialect`, made (and its Ajv build loaded) with the first
 * check of that dialect: its meta-schema is compiled once per process.
 */
function metaValidator(dialect: SchemaDialect): Ajv {
  return (metaValidators[dialect] ??=
    dialect === 'draft-07'
      ? new (require('ajv') as typeof import('ajv')).Ajv({ strict: false })
      : new (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).Ajv2020({ strict: false }));
}

/**
 * Why `schema` is not a valid JSON Schema of its dialect (`schemaDialect`: the declared
 * `$schema`, else draft 2020-12, or draft-07 for a schema in draft-07's tuple form), or
 * `undefined` when it is. One shared validator per dialect: its meta-schema is compiled once per
 * process, not once per toolkit, and it keeps no reference to the schemas it checks. Verdicts are
 * remembered by the JSON text of small schemas (at most 4096 of them), since many parameters share
 * a shape, and by the object of a frozen one (a schema frozen before registration is checked once).
 *
 * @internal
 */
export function schemaProblems(schema: JsonSchema): string | undefined {
  const frozen = Object.isFrozen(schema);
  if (frozen && frozenVerdicts.has(schema)) return frozenVerdicts.get(schema);
  const key = JSON.stringify(schema);
  const small = key.length <= MAX_KEY_CHARS;
  let verdict: string | undefined;
  if (small && checkedSchemas.has(key)) verdict = checkedSchemas.get(key);
  else {
    verdict = dialectProblems(schema);
    if (small) {
      if (checkedSchemas.size >= 4096) checkedSchemas.clear();
      checkedSchemas.set(key, verdict);
    }
  }
  if (frozen) frozenVerdicts.set(schema, verdict);
  return verdict;
}

function dialectProblems(schema: JsonSchema): string | undefined {
  const found = schemaDialect(schema);
  if ('problem' in found) return found.problem;
  const ajv = metaValidator(found.dialect);
  // the dialect is known: checked against its meta-schema whatever spelling `$schema` has (https, no `#`)
  const { $schema: _declared, ...rest } = schema;
  return ajv.validateSchema(rest) ? undefined : ajv.errorsText(ajv.errors, { dataVar: 'schema' });
}
