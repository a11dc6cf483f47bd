import type { Ajv } from 'ajv';
import type { JsonSchema } from '../common/json-schema';

let metaValidator: Ajv | undefined;
const checkedSchemas = new Map<string, string | undefined>();

/**
 * Why `schema` is not a valid JSON Schema (draft-07 meta-schema), or `undefined` when it is.
 * One shared validator, made (and Ajv loaded) with the first check: its meta-schema is compiled
 * once per process, not once per toolkit, and it keeps no reference to the schemas it checks. Verdicts are remembered by the schema's JSON
 * text (bounded), since many parameters share a shape.
 *
 * @internal
 */
export function schemaProblems(schema: JsonSchema): string | undefined {
  const key = JSON.stringify(schema);
  if (checkedSchemas.has(key)) return checkedSchemas.get(key);
  const ajv = (metaValidator ??= new (require('ajv') as typeof import('ajv')).Ajv({ strict: false }));
  const verdict = ajv.validateSchema(schema) ? undefined : ajv.errorsText(ajv.errors, { dataVar: 'schema' });
  if (checkedSchemas.size >= 4096) checkedSchemas.clear();
  checkedSchemas.set(key, verdict);
  return verdict;
}
