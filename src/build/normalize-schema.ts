import { isPlainObject } from '../utils/plain-object';
import type { JsonSchema } from '../model/json-schema';

/** Keywords in the order a reader expects them; anything else follows, alphabetically. */
const KEYWORD_ORDER = [
  'type',
  'title',
  'description',
  'const',
  'enum',
  'format',
  'pattern',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'items',
  'additionalItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'properties',
  'patternProperties',
  'required',
  'additionalProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'default',
  'examples',
];
const RANK = new Map(KEYWORD_ORDER.map((k, i) => [k, i]));

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set(['items', 'additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf', 'items']);
/** Keywords whose value maps names to schemas (their own key order is kept: it is declaration order). */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties']);
/** What a schema must not carry in the manifest. */
const DROPPED = new Set(['$schema', '$id', 'definitions', '$defs']);

function compareKeys(a: string, b: string): number {
  const ra = RANK.get(a) ?? KEYWORD_ORDER.length;
  const rb = RANK.get(b) ?? KEYWORD_ORDER.length;
  return ra !== rb ? ra - rb : a < b ? -1 : a > b ? 1 : 0;
}

/** Definitions a `$ref` may point at, by name. */
export type SchemaDefinitions = Readonly<Record<string, unknown>>;

function refName(ref: string): string {
  return decodeURIComponent(ref.replace(/^.*#\/definitions\//, ''));
}

/**
 * typescript-json-schema emits a `$ref` (even with `ref: false`) only for a recursive type.
 * The manifest has no definitions, so the definition is spelled out once in place and the
 * recursion is cut below it: there any value of the definition's JSON type is accepted.
 */
function resolveRef(node: Record<string, unknown>, definitions: SchemaDefinitions, expanding: readonly string[]): unknown {
  const name = refName(String(node.$ref));
  const { $ref: _ref, ...annotations } = node;
  const definition = definitions[name];
  if (definition === undefined || typeof definition !== 'object' || definition === null || expanding.includes(name)) {
    const type = typeof definition === 'object' && definition !== null ? (definition as Record<string, unknown>).type : undefined;
    return normalizeNode({ ...(type !== undefined ? { type } : {}), ...annotations, $comment: `recursive reference to ${name}, not expanded` }, definitions, expanding);
  }
  return normalizeNode({ ...(definition as Record<string, unknown>), ...annotations }, definitions, [...expanding, name]);
}

function normalizeNode(value: unknown, definitions: SchemaDefinitions, expanding: readonly string[]): unknown {
  if (typeof value === 'boolean') return value;
  if (!isPlainObject(value)) return {};
  if (typeof value.$ref === 'string') return resolveRef(value, definitions, expanding);
  const out: Record<string, unknown> = {};
  const recurse = (child: unknown): unknown => normalizeNode(child, definitions, expanding);
  for (const key of Object.keys(value).sort(compareKeys)) {
    if (DROPPED.has(key)) continue;
    const child = value[key];
    if (child === undefined) continue;
    if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainObject(child)) {
      const map: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(child)) map[name] = recurse(schema);
      out[key] = map;
    } else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(child)) {
      out[key] = child.map(recurse);
    } else if (SCHEMA_KEYWORDS.has(key)) {
      out[key] = recurse(child);
    } else {
      out[key] = child;
    }
  }
  return out;
}

/**
 * Makes a generated schema fit for the manifest: no `$schema`, `$id` or `definitions`, no
 * `$ref` (a recursive type is spelled out once from `definitions`, then cut with a
 * `$comment`), and keywords in a fixed order so the manifest diffs well.
 */
export function normalizeSchema(schema: unknown, definitions: SchemaDefinitions = {}): JsonSchema {
  const normalized = normalizeNode(schema, definitions, []);
  return (isPlainObject(normalized) ? normalized : {}) as JsonSchema;
}
