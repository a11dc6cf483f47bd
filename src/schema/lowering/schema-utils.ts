import type { JsonSchema, JsonSchemaType } from '../../common/json-schema';
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

/** True for a non-null, non-array object. @internal */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
export function findLocalRef(root: JsonSchema, ref: string): { name: string; schema: JsonSchema } | undefined {
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
): { name: string; schema: JsonSchema } {
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
