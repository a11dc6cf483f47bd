import type AjvCore from 'ajv/dist/core';
import type { JsonSchema } from '../common/json-schema';
import { schemaDialect, type SchemaDialect } from './schema-dialect';

const metaValidators: { [D in SchemaDialect]?: AjvCore } = {};
const checkedSchemas = new Map<string, string | undefined>();

/**
 * The shared meta-schema validator of `dialect`, made (and its Ajv build loaded) with the first
 * check of that dialect: its meta-schema is compiled once per process.
 */
function metaValidator(dialect: SchemaDialect): AjvCore {
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
 * remembered by the schema's JSON text (bounded), since many parameters share a shape.
 *
 * @internal
 */
export function schemaProblems(schema: JsonSchema): string | undefined {
  const key = JSON.stringify(schema);
  if (checkedSchemas.has(key)) return checkedSchemas.get(key);
  const verdict = dialectProblems(schema);
  if (checkedSchemas.size >= 4096) checkedSchemas.clear();
  checkedSchemas.set(key, verdict);
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
