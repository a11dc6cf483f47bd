import { isPlainObject } from '../../utils/plain-object';
import type { JsonSchema, JsonSchemaDefinition, JsonSchemaType } from '../../model/json-schema';
import { ToolkitError } from '../../errors';

/** Collects report lines for one tool. @internal */
export type Reporter = (path: string, change: string) => void;

/** The path of a property under `base`. @internal */
export function propertyPath(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

/** The path of array items under `base`. @internal */
export function itemsPath(base: string): string {
  return `${base}[]`;
}

/** The path of the `index`-th branch of a union under `base`. @internal */
export function branchPath(base: string, keyword: string, index: number): string {
  return propertyPath(base, `${keyword}[${index}]`);
}

/** `path`, or `(root)` for the empty path, for messages. @internal */
export function describePath(path: string): string {
  return path === '' ? '(root)' : `"${path}"`;
}

/** The non-null types a schema's `type` names (`[]` when it names none). @internal */
export function typeList(schema: JsonSchema): JsonSchemaType[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? [...schema.type] : [schema.type];
}

/** True when the schema describes an object (by `type` or by having `properties`). @internal */
export function isObjectSchema(schema: JsonSchema): boolean {
  return typeList(schema).includes('object') || (schema.type === undefined && schema.properties !== undefined);
}


/**
 * The object schema that means what `definition` means: `true` as `{}`, `false` as `{ not: {} }`,
 * an object schema as it is. For readers that want an object where JSON Schema allows a boolean
 * (the MCP SDK's clients, for each of a tool's `properties`). @internal
 */
export function objectSchemaOf(definition: JsonSchemaDefinition): JsonSchema {
  if (typeof definition !== 'boolean') return definition;
  return definition ? {} : { not: {} };
}

/**
 * `node` with its `allOf` inlined (`true` as `{}`), the member's keywords winning over `node`'s
 * own when `memberWins`: `node` itself without `allOf`, `'several'` when it has more than one
 * member (no provider without `allOf` can merge them), `false` when its one member is `false`. @internal
 */
export function inlineSingleAllOf(node: JsonSchema, memberWins: boolean): JsonSchema | 'several' | false {
  const { allOf, ...rest } = node;
  if (allOf === undefined) return node;
  if (allOf.length !== 1) return 'several';
  const [member] = allOf;
  if (member === false) return false;
  const inner = member === true ? {} : member;
  return memberWins ? { ...rest, ...inner } : { ...inner, ...rest };
}

/** Freezes a plain JSON value and everything inside it; returns it. @internal */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}

/** A deep copy of a plain JSON value (schemas are JSON). @internal */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => cloneJson(v)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneJson(v);
    return out as T;
  }
  return value;
}

/**
 * Looks up a local `$ref` (`#/$defs/Name` or `#/definitions/Name`, JSON-pointer escaped) in the
 * root schema: the definition's name (`$defs/Name`) and schema, or `undefined` when the
 * reference is not local or names no definition. @internal
 */
export function findLocalRef(root: JsonSchema, ref: string): { name: string; schema: JsonSchemaDefinition } | undefined {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return undefined;
  const table = match[1] === '$defs' ? root.$defs : root.definitions;
  const name = decodeURIComponent(match[2].replace(/~1/g, '/').replace(/~0/g, '~'));
  const schema = table?.[name];
  return schema === undefined ? undefined : { name: `${match[1]}/${name}`, schema };
}

/**
 * {@link findLocalRef}, for lowerings that cannot go on without the definition.
 *
 * @throws ToolkitError `INVALID_DEFINITION` for a non-local or unknown reference.
 * @internal
 */
export function resolveLocalRef(
  root: JsonSchema,
  ref: string,
  tool: string,
  path: string,
): { name: string; schema: JsonSchemaDefinition } {
  const found = findLocalRef(root, ref);
  if (found === undefined) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `Tool "${tool}": the $ref "${ref}" at ${describePath(path)} cannot be resolved. ` +
        'Only local references to "#/$defs/Name" or "#/definitions/Name" of the same schema are ' +
        'supported; inline the referenced schema or add it under $defs.',
      { tool },
    );
  }
  return found;
}

/** The JSON type of a value, as a JSON Schema type name. @internal */
export function jsonTypeOf(value: unknown): JsonSchemaType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'object';
}

/** The narrowest common type of enum values (`number` covers integers), or undefined. @internal */
export function typeOfValues(values: readonly unknown[]): JsonSchemaType | undefined {
  const types = new Set(values.filter((v) => v !== null).map(jsonTypeOf));
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  return types.size === 1 ? [...types][0] : undefined;
}

/**
 * A tuple (`prefixItems`, or draft-07's `items: [...]`) as one `items` schema, for providers that
 * have no tuples: the positions' schemas (and the schema of the items after them) as an `anyOf`,
 * and `maxItems` the tuple's length unless items after it are allowed by a schema. Reported with
 * `label` in front; `node` itself when it is no tuple. The canonical schema still checks each
 * position: a model that mixes them up gets an `INVALID_ARGUMENTS` it can repair from. @internal
 */
export function tupleAsItems(node: JsonSchema, path: string, report: Reporter, label: string): JsonSchema {
  const draft07 = Array.isArray(node.items);
  const members: unknown = draft07 ? node.items : node.prefixItems;
  if (!Array.isArray(members)) return node;
  const rest: unknown = draft07 ? node.additionalItems : node.items;
  const { prefixItems: _prefix, additionalItems: _additional, items: _items, ...out } = node;
  const schemas = new Map<string, JsonSchema>();
  // a position that is `true` takes any value, as `{}` says; one that is `false` takes none and adds nothing
  for (const member of [...(members as unknown[]), rest === true ? undefined : rest]) {
    const schema = member === true ? {} : member;
    if (isPlainObject(schema)) schemas.set(JSON.stringify(schema), schema as JsonSchema);
  }
  const unique = [...schemas.values()];
  out.items = unique.length === 1 ? unique[0] : { anyOf: unique };
  const open = isPlainObject(rest);
  if (!open && (out.maxItems === undefined || out.maxItems > members.length)) out.maxItems = members.length;
  report(
    path,
    `${label}the tuple (${draft07 ? 'items: [...]' : 'prefixItems'}, ${members.length} positions) became items: ${unique.length === 1 ? 'one schema' : 'anyOf its schemas'}` +
      `${open ? '' : ` with maxItems ${out.maxItems}`} (no tuples here; toolwright still checks each position)`,
  );
  return out;
}
