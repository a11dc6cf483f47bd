import { isPlainObject } from '../../utils/plain-object';
import type { JsonSchema, JsonSchemaDefinition, JsonSchemaType } from '../../model/json-schema';
import { findLocalRef, jsonTypeOf, typeList } from '../../schema/lowering/schema-utils';
import type { RepairChange } from '../../model/repair-types';
import { pointerTo } from '../validation/json-pointer';
import { MAX_REPAIR_CHARS } from './repair-syntax';

/** The most values one repair visits (arguments are small; a huge one is refused, not walked). */
const MAX_VISITS = 10_000;
/** How deep local `$ref`s are followed (a recursive schema ends here). */
const MAX_DEPTH = 64;
/** A number exactly as JSON writes one. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** A string that may be a list or an encoded value (wrapping it into one item would choose a reading). */
const LIST_LIKE = /[,;\n]|^\s*["'[{]/;

/** The walk's state: the changes so far, and whether it met a value with two readings. */
class Walk {
  changes: RepairChange[] = [];
  ambiguous = false;
  visits = 0;
  constructor(readonly root: JsonSchema) {}
}

/** The schema a definition stands for, local `$ref`s followed; `undefined` for `true` or an unresolvable reference. */
function resolve(walk: Walk, def: JsonSchemaDefinition | undefined): JsonSchema | undefined {
  let node = def;
  for (let hops = 0; isPlainObject(node) && typeof (node as JsonSchema).$ref === 'string'; hops++) {
    if (hops > MAX_DEPTH) return undefined;
    node = findLocalRef(walk.root, (node as JsonSchema).$ref!)?.schema;
  }
  return isPlainObject(node) ? (node as JsonSchema) : undefined;
}

/** The JSON types a schema admits, from `type`, `enum`/`const`, or its object/array keywords; `undefined`: any. */
function typesOf(schema: JsonSchema): readonly JsonSchemaType[] | undefined {
  if (schema.type !== undefined) return typeList(schema);
  if (schema.enum !== undefined) return schema.enum.map(jsonTypeOf);
  if ('const' in schema) return [jsonTypeOf(schema.const)];
  if (schema.properties !== undefined) return ['object'];
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ['array'];
  return undefined;
}

function admits(types: readonly JsonSchemaType[], type: JsonSchemaType): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** Whether `value` has a type (and, for enums and consts, a value) the schema admits. */
function fits(value: unknown, schema: JsonSchema): boolean {
  const types = typesOf(schema);
  if (types !== undefined && !admits(types, jsonTypeOf(value))) return false;
  if (schema.enum !== undefined && (value === null || typeof value !== 'object') && !schema.enum.includes(value)) return false;
  return !('const' in schema) || value === schema.const || typeof value === 'object';
}

/** `run` on a walk of its own (its changes kept apart), counted against the walk's bound. */
function trial(walk: Walk, run: (sub: Walk) => unknown): { value: unknown; sub: Walk } {
  const sub = new Walk(walk.root);
  sub.visits = walk.visits;
  const value = run(sub);
  walk.visits = sub.visits;
  if (sub.ambiguous) walk.ambiguous = true;
  return { value, sub };
}

/** The readings of a value the schema does not admit, each with its changes. */
function readings(walk: Walk, value: unknown, schema: JsonSchema, types: readonly JsonSchemaType[], path: string): { value: unknown; changes: RepairChange[] }[] {
  const found: { value: unknown; changes: RepairChange[] }[] = [];
  const attempt = (kind: RepairChange['kind'], after: unknown, inner?: (sub: Walk) => unknown): void => {
    const { value: result, sub } = trial(walk, (sub) => (inner ? inner(sub) : after));
    if (!sub.ambiguous && fits(result, schema)) found.push({ value: result, changes: [{ path, before: value, after: result, kind }, ...sub.changes] });
  };
  if (typeof value === 'string') {
    if ((admits(types, 'number') || types.includes('integer')) && JSON_NUMBER.test(value)) {
      const n = Number(value);
      if (types.includes('number') ? Number.isFinite(n) : Number.isSafeInteger(n)) attempt('number_from_string', n);
    }
    if (types.includes('boolean') && (value === 'true' || value === 'false')) attempt('boolean_from_string', value === 'true');
    const container = value.length <= MAX_REPAIR_CHARS ? parseContainer(value) : undefined;
    if (container !== undefined && admits(types, jsonTypeOf(container))) attempt('json_from_string', container, (sub) => coerce(sub, container, schema, path));
    if (container !== undefined || LIST_LIKE.test(value)) return found;
  }
  if (types.includes('array') && value !== null && !Array.isArray(value) && schema.prefixItems === undefined && !Array.isArray(schema.items)) {
    const items = resolve(walk, schema.items as JsonSchemaDefinition | undefined);
    attempt('wrapped_in_array', [value], (sub) => [items === undefined ? value : coerce(sub, value, items, pointerTo(path, 0))]);
  }
  return found;
}

/** A JSON object or array written as text, or `undefined`. */
function parseContainer(text: string): unknown {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) || Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The branch of a union that the value has, or can be read as, exactly one of. */
function coerceUnion(walk: Walk, value: unknown, branches: readonly JsonSchemaDefinition[], path: string): unknown {
  const schemas = branches.map((branch) => resolve(walk, branch));
  const fitting = schemas.filter((schema) => schema === undefined || fits(value, schema));
  if (fitting.length > 0) return fitting.length === 1 && fitting[0] !== undefined ? coerce(walk, value, fitting[0], path) : value;
  const found: { value: unknown; changes: RepairChange[] }[] = [];
  for (const schema of schemas) {
    const { value: result, sub } = trial(walk, (sub) => coerce(sub, value, schema!, path));
    if (!sub.ambiguous && sub.changes.length > 0 && fits(result, schema!)) found.push({ value: result, changes: sub.changes });
  }
  if (found.length > 1) walk.ambiguous = true;
  if (found.length !== 1) return value;
  walk.changes.push(...found[0]!.changes);
  return found[0]!.value;
}

function coerceObject(walk: Walk, value: Record<string, unknown>, schema: JsonSchema, path: string): Record<string, unknown> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const own = Object.prototype.hasOwnProperty.call(properties, key);
    const child = resolve(walk, own ? properties[key] : schema.additionalProperties);
    if (child === undefined) continue;
    const item = value[key];
    const at = pointerTo(path, key);
    if (item === null && own && !required.has(key) && !fits(null, child) && child.anyOf === undefined && child.oneOf === undefined) {
      copy ??= { ...value };
      delete copy[key];
      walk.changes.push({ path: at, before: null, after: undefined, kind: 'null_dropped' });
      continue;
    }
    const next = coerce(walk, item, child, at);
    if (next !== item) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}

function coerceArray(walk: Walk, value: readonly unknown[], schema: JsonSchema, path: string): readonly unknown[] {
  const positions = schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : []);
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  let copy: unknown[] | undefined;
  value.forEach((item, index) => {
    const child = resolve(walk, index < positions.length ? positions[index] : (rest as JsonSchemaDefinition | undefined));
    if (child === undefined) return;
    const next = coerce(walk, item, child, pointerTo(path, index));
    if (next !== item) (copy ??= [...value])[index] = next;
  });
  return copy ?? value;
}

/** `value` read by `schema`: itself when nothing applies, otherwise a copy with the changes recorded on `walk`. */
function coerce(walk: Walk, value: unknown, schema: JsonSchema, path: string): unknown {
  if (walk.ambiguous || ++walk.visits > MAX_VISITS) {
    walk.ambiguous = true;
    return value;
  }
  let current = value;
  for (const member of schema.allOf ?? []) {
    const part = resolve(walk, member);
    if (part !== undefined) current = coerce(walk, current, part, path);
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (union !== undefined) current = coerceUnion(walk, current, union, path);
  const types = typesOf(schema);
  if (types === undefined || admits(types, jsonTypeOf(current))) {
    if (isPlainObject(current)) return coerceObject(walk, current, schema, path);
    return Array.isArray(current) ? coerceArray(walk, current, schema, path) : current;
  }
  const found = readings(walk, current, schema, types, path);
  if (found.length > 1) walk.ambiguous = true;
  if (found.length !== 1) return current;
  walk.changes.push(...found[0]!.changes);
  return found[0]!.value;
}

/**
 * @internal The model's parsed arguments read by the tool's schema with the coercions that cannot
 * change their meaning (see SPEC "Repair"): the repaired copy and its changes, or `undefined` when
 * nothing applies, a value has two readings (a union two coercions fit), or the walk ran past its bound.
 * Whether the result is valid is the caller's to check with the tool's own validator.
 */
export function coerceArguments(args: Record<string, unknown>, schema: JsonSchema): { args: Record<string, unknown>; changes: RepairChange[] } | undefined {
  const walk = new Walk(schema);
  const repaired = coerce(walk, args, schema, '');
  if (walk.ambiguous || walk.changes.length === 0 || !isPlainObject(repaired)) return undefined;
  return { args: repaired, changes: walk.changes };
}
