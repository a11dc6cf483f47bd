import { isPlainObject } from '../common/plain-object';
import type { JsonSchema } from '../common/json-schema';
import { findLocalRef, isObjectSchema, typeList } from './lowering/schema-utils';

/**
 * The one rule for `null` in a model's arguments, shared by validation and `restoreArguments`:
 * a `null` for an optional property that does not accept `null` means "absent" and is removed;
 * a required property, or one whose schema accepts `null`, keeps it. The rule applies at every
 * depth: nested objects, arrays of objects, union branches and local `$ref`s.
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
  readonly items: Plan;
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
    const plan = build(schema, schema, new Map());
    strip = plan === undefined ? null : (args) => apply(plan, args) as Record<string, unknown>;
    STRIPPERS.set(schema, strip);
  }
  return strip ?? undefined;
}

/** True when `schema` accepts `null` itself (by type, `nullable`, enum, or a union branch). */
function acceptsNull(schema: JsonSchema, root: JsonSchema, seen: Set<JsonSchema> = new Set()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (typeList(schema).includes('null') || schema.nullable === true || (schema.enum?.includes(null) ?? false) || schema.const === null) return true;
  if (typeof schema.$ref === 'string') {
    const target = findLocalRef(root, schema.$ref)?.schema;
    if (target !== undefined && acceptsNull(target, root, seen)) return true;
  }
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((branch) => acceptsNull(branch, root, seen));
}

function build(schema: JsonSchema, root: JsonSchema, refs: Map<string, LazyPlan>): Plan | undefined {
  if (typeof schema.$ref === 'string') {
    const known = refs.get(schema.$ref);
    if (known !== undefined) return known;
    const target = findLocalRef(root, schema.$ref)?.schema;
    if (target === undefined) return undefined;
    const lazy: LazyPlan = { kind: 'lazy' };
    refs.set(schema.$ref, lazy);
    const { $ref, ...siblings } = schema;
    lazy.resolved = build({ ...target, ...siblings }, root, refs);
    return lazy.resolved === undefined ? undefined : lazy;
  }
  const unions = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf?.length === 1 ? schema.allOf : [])];
  const branches: Plan[] = [];
  for (const branch of unions) {
    const plan = build(branch, root, refs);
    if (plan !== undefined) branches.push(plan);
  }
  let own: Plan | undefined;
  if (isObjectSchema(schema) && schema.properties !== undefined) {
    const properties = schema.properties;
    const required = new Set(schema.required ?? []);
    const keys = new Set(Object.keys(properties));
    const optional = new Set([...keys].filter((k) => !required.has(k) && !acceptsNull(properties[k], root)));
    const children = new Map<string, Plan>();
    for (const [name, child] of Object.entries(properties)) {
      const plan = build(child, root, refs);
      if (plan !== undefined) children.set(name, plan);
    }
    if (optional.size > 0 || children.size > 0) own = { kind: 'object', keys, optional, children };
  } else if (typeList(schema).includes('array') && isPlainObject(schema.items)) {
    const items = build(schema.items as JsonSchema, root, refs);
    if (items !== undefined) own = { kind: 'array', items };
  }
  if (own !== undefined) branches.unshift(own);
  if (branches.length === 0) return undefined;
  return branches.length === 1 ? branches[0] : { kind: 'union', branches };
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
        const next = apply(plan.items, item);
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
