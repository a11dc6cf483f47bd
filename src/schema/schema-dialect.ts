import type { JsonSchema } from '../model/json-schema';

/** @internal The JSON Schema dialects toolwright validates with: each by its own rules (Ajv's builds). */
export type SchemaDialect = '2020-12' | 'draft-07';

/** @internal The `$schema` of draft 2020-12, the dialect of a schema that declares none (as in MCP 2025-11-25). */
export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** @internal The `$schema` of draft-07. */
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** The declared `$schema` URIs of each dialect, spelled as in the wild (with or without `#`, http or https). */
const DECLARED: ReadonlyMap<string, SchemaDialect> = new Map([
  ['json-schema.org/draft/2020-12/schema', '2020-12'],
  ['json-schema.org/draft-07/schema', 'draft-07'],
]);

/** Keywords whose values are data, not schemas: nothing inside them is a keyword. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** Keywords whose values map names to schemas. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/** Keywords that only draft 2020-12 (or 2019-09) defines: a schema that has them is not draft-07. */
const KEYWORDS_2020: ReadonlySet<string> = new Set([
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentRequired',
  'dependentSchemas',
  '$dynamicRef',
  '$dynamicAnchor',
  '$anchor',
  'minContains',
  'maxContains',
]);

/** @internal What {@link schemaDialect} found: the dialect, or why none applies. */
export type DialectVerdict = { readonly dialect: SchemaDialect } | { readonly problem: string };

/** The dialect a declared `$schema` names, or `undefined` for one toolwright does not validate. */
function declaredDialect(uri: string): SchemaDialect | undefined {
  return DECLARED.get(uri.trim().replace(/^https?:\/\//, '').replace(/#$/, ''));
}

/** Which draft-specific forms `schema` uses anywhere: the draft-07 tuple (`items: [...]`) and 2020-12 keywords. */
function formsUsed(schema: JsonSchema): { tuple07: boolean; keyword2020: string | undefined } {
  let tuple07 = false;
  let keyword2020: string | undefined;
  const stack: unknown[] = [schema];
  while (stack.length > 0 && !(tuple07 && keyword2020 !== undefined)) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const child of node) stack.push(child);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'items' && Array.isArray(child)) tuple07 = true;
      else if (keyword2020 === undefined && KEYWORDS_2020.has(key)) keyword2020 = key;
      if (typeof child !== 'object' || child === null) continue;
      // a map of named schemas holds names, not keywords: look only at its schemas
      stack.push(SCHEMA_MAPS.has(key) ? Object.values(child) : child);
    }
  }
  return { tuple07, keyword2020 };
}

/**
 * @internal The dialect `schema` is validated with: the one its root `$schema` declares (draft
 * 2020-12 or draft-07); without `$schema`, draft 2020-12 (MCP 2025-11-25's default), unless the
 * schema uses draft-07's tuple form (`items: [...]`), which 2020-12 forbids: then draft-07, the
 * only reading under which it is valid. A `$schema` of another dialect, or a schema that mixes the
 * draft-07 tuple form with 2020-12 keywords, gets a `problem` instead.
 *
 * @example
 * schemaDialect({ type: 'object' });                                              // { dialect: '2020-12' }
 * schemaDialect({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }); // { dialect: 'draft-07' }
 */
export function schemaDialect(schema: JsonSchema): DialectVerdict {
  const declared: unknown = schema.$schema;
  if (declared !== undefined && typeof declared !== 'string') return { problem: 'its $schema is not a string (a dialect URI)' };
  if (typeof declared === 'string') {
    const dialect = declaredDialect(declared);
    if (dialect !== undefined) return { dialect };
    return {
      problem:
        `its $schema ${JSON.stringify(declared.slice(0, 120))} names a JSON Schema dialect toolwright does not validate ` +
        `(use "${DRAFT_2020_12}" or "${DRAFT_07}", or leave $schema out for 2020-12)`,
    };
  }
  const { tuple07, keyword2020 } = formsUsed(schema);
  if (!tuple07) return { dialect: '2020-12' };
  if (keyword2020 === undefined) return { dialect: 'draft-07' };
  return {
    problem:
      `it mixes draft-07's tuple form (items: [...]) with the 2020-12 keyword ${keyword2020}; ` +
      `write the tuple as prefixItems (2020-12), or declare "$schema": "${DRAFT_07}" and drop ${keyword2020}`,
  };
}
