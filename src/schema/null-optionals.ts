import { isPlainObject } from '../utils/plain-object';
import type { JsonSchema, JsonSchemaDefinition } from '../model/json-schema';
import { findLocalRef, isObjectSchema, typeList } from './lowering/schema-utils';
import { schemaDialect } from './schema-dialect';

/**
 * The one rule for `null` in a model's arguments, shared by validation and `restoreArguments`:
 * a `null` for an optional property that does not accept `null` means "absent" and is removed;
 * a required property, or one whose schema accepts `null`, keeps it. The rule applies at every
 * depth: nested objects, arrays of objects, tuple positions, union branches and local `$ref`s.
 * It is about properties only: an item of an array or a tuple is a value, never "absent", so a
 * `null` item stays where it is (removing it would shift the positions after it); an object at a
 * tuple position follows the rule with that position's schema.
 */

interface ObjectPlan {
  readonly kind: 'object';
  /** Every declared property name (to pick a union branch). */
  readonly keys: ReadonlySet<string>;
  /** Optional properties that do not accept `null`: a `null` there means absent. */
  readonly optional: ReadonlySet<string>;
  readonly children: ReadonlyMap<string, Plan>;
}
interface ArrayPlan {
  readonly kind: 'array';
  /** The plans of a tuple's positions (`prefixItems`, or draft-07's `items: [...]`), by index. */
  readonly positions: readonly (Plan | undefined)[];
  /** The plan of the items past the tuple (of every item when there is no tuple). */
  readonly rest: Plan | undefined;
}
interface UnionPlan {
  readonly kind: 'union';
  readonly branches: readonly Plan[];
}
interface LazyPlan {
  readonly kind: 'lazy';
  resolved?: Plan;
}
type Plan = ObjectPlan | ArrayPlan | UnionPlan | LazyPlan;

/** Removes the `null`s of optional properties from arguments (see the module's rule). */
export type NullStripper = (args: Record<string, unknown>) => Record<string, unknown>;

const STRIPPERS = new WeakMap<object, NullStripper | null>();

/**
 * @internal What removes the absent-meaning `null`s from arguments for `schema`, or `undefined`
 * when no `null` can mean absent anywhere in it. The walk over the schema is done once per schema
 * object (and the function cached with it); it visits only the parts of the arguments that can change and never
 * mutates them (a changed object is a copy; unchanged parts are shared).
 *
 * @example
 * const strip = nullStripper({ type: 'object', properties: { days: { type: 'number' } } });
 * strip?.({ days: null }); // {}
 */
export function nullStripper(schema: JsonSchema): NullStripper | undefined {
  let strip = STRIPPERS.get(schema);
  if (strip === undefined) {
    const found = schemaDialect(schema);
    const context: BuildContext = { root: schema, refs: new Map(), draft07: 'dialect' in found && found.dialect === 'draft-07' };
    const plan = build(schema, context);
    strip = plan === undefined ? null : (args) => apply(plan, args) as Record<string, unknown>;
    STRIPPERS.set(schema, strip);
  }
  return strip ?? undefined;
}

interface BuildContext {
  readonly root: JsonSchema;
  readonly refs: Map<string, LazyPlan>;
  /** Draft-07 rules: `items: [...]` and `additionalItems` make the tuple (`prefixItems` means nothing). */
  readonly draft07: boolean;
}

/** True when `schema` accepts `null` itself (by type, `nullable`, enum, or a union branch; `true` accepts anything). */
function acceptsNull(schema: JsonSchemaDefinition, root: JsonSchema, seen: Set<JsonSchema> = new Set()): boolean {
  if (typeof schema === 'boolean') return schema;
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (typeList(schema).includes('null') || schema.nullable === true || (schema.enum?.includes(null) ?? false) || schema.const === null) return true;
  if (typeof schema.$ref === 'string') {
    const target = findLocalRef(root, schema.$ref)?.schema;
    if (target !== undefined && acceptsNull(target, root, seen)) return true;
  }
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((branch) => acceptsNull(branch, root, seen));
}

function build(definition: JsonSchemaDefinition, context: BuildContext): Plan | undefined {
  // a boolean schema has no properties: nothing under it can mean absent
  if (typeof definition === 'boolean') return undefined;
  const schema = definition;
  if (typeof schema.$ref === 'string') {
    const known = context.refs.get(schema.$ref);
    if (known !== undefined) return known;
    const target = findLocalRef(context.root, schema.$ref)?.schema;
    if (target === undefined || typeof target === 'boolean') return undefined;
    const lazy: LazyPlan = { kind: 'lazy' };
    context.refs.set(schema.$ref, lazy);
    const { $ref, ...siblings } = schema;
    lazy.resolved = build({ ...target, ...siblings }, context);
    return lazy.resolved === undefined ? undefined : lazy;
  }
  const unions = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf?.length === 1 ? schema.allOf : [])];
  const branches: Plan[] = [];
  for (const branch of unions) {
    const plan = build(branch, context);
    if (plan !== undefined) branches.push(plan);
  }
  const own = isObjectSchema(schema) && schema.properties !== undefined ? objectPlan(schema, schema.properties, context) : arrayPlan(schema, context);
  if (own !== undefined) branches.unshift(own);
  if (branches.length === 0) return undefined;
  return branches.length === 1 ? branches[0] : { kind: 'union', branches };
}

function objectPlan(schema: JsonSchema, properties: Record<string, JsonSchemaDefinition>, context: BuildContext): ObjectPlan | undefined {
  const required = new Set(schema.required ?? []);
  const keys = new Set(Object.keys(properties));
  const optional = new Set([...keys].filter((k) => !required.has(k) && !acceptsNull(properties[k], context.root)));
  const children = new Map<string, Plan>();
  for (const [name, child] of Object.entries(properties)) {
    const plan = build(child, context);
    if (plan !== undefined) children.set(name, plan);
  }
  return optional.size > 0 || children.size > 0 ? { kind: 'object', keys, optional, children } : undefined;
}

/** The plan of an array schema: one per tuple position, and one for the items past them (or all of them). */
function arrayPlan(schema: JsonSchema, context: BuildContext): ArrayPlan | undefined {
  const tuple = context.draft07 ? schema.items : schema.prefixItems;
  const positions = Array.isArray(tuple) ? tuple.map((member) => build(member, context)) : [];
  const restSchema = context.draft07 ? (Array.isArray(tuple) ? schema.additionalItems : schema.items) : schema.items;
  const rest = restSchema === undefined || Array.isArray(restSchema) ? undefined : build(restSchema, context);
  if (rest === undefined && !positions.some((p) => p !== undefined)) return undefined;
  return { kind: 'array', positions, rest };
}

function deref(plan: Plan): Plan | undefined {
  return plan.kind === 'lazy' ? plan.resolved : plan;
}

function apply(input: Plan, value: unknown): unknown {
  const plan = deref(input);
  if (plan === undefined) return value;
  switch (plan.kind) {
    case 'object':
      return isPlainObject(value) ? applyObject(plan, value) : value;
    case 'array': {
      if (!Array.isArray(value)) return value;
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const itemPlan = i < plan.positions.length ? plan.positions[i] : plan.rest;
        if (itemPlan === undefined || typeof item !== 'object' || item === null) continue;
        const next = apply(itemPlan, item);
        if (next !== item) (out ??= value.slice())[i] = next;
      }
      return out ?? value;
    }
    case 'union': {
      const branch = pickBranch(plan.branches, value);
      return branch === undefined ? value : apply(branch, value);
    }
    default:
      return value;
  }
}

function applyObject(plan: ObjectPlan, value: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === null && plan.optional.has(key)) {
      delete (out ??= { ...value })[key];
      continue;
    }
    const child = plan.children.get(key);
    if (child === undefined || typeof v !== 'object' || v === null) continue;
    const next = apply(child, v);
    if (next !== v) setOwn((out ??= { ...value }), key, next);
  }
  return out ?? value;
}

/** `target[key] = value` that defines a data property even for `__proto__`. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The branch that fits a value best: for objects, the first whose properties cover its keys. */
function pickBranch(branches: readonly Plan[], value: unknown): Plan | undefined {
  if (Array.isArray(value)) return branches.find((b) => deref(b)?.kind === 'array');
  if (!isPlainObject(value)) return undefined;
  const objects = branches.map(deref).filter((b): b is ObjectPlan => b?.kind === 'object');
  const keys = Object.keys(value);
  return objects.find((b) => keys.every((k) => b.keys.has(k))) ?? objects[0];
}
