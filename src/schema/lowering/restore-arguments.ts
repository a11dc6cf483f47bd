import type { JsonSchema, ObjectJsonSchema } from '../../common/json-schema';
import type { LoweringOptions, ProviderName } from './provider-definitions';
import { findLocalRef, isObjectSchema, isPlainObject, typeList } from './schema-utils';

/**
 * Maps a model's arguments back to the canonical schema (a compiled {@link restoreArguments}).
 *
 * @example
 * const restore: ArgumentRestorer = compileArgumentRestorer(schema, 'openai', { strict: true });
 * restore({ city: 'Paris', days: null }); // { city: 'Paris' }
 */
export type ArgumentRestorer = (args: Record<string, unknown>) => Record<string, unknown>;

interface ObjectPlan {
  readonly kind: 'object';
  /** Every declared property name (to pick a union branch). */
  readonly keys: ReadonlySet<string>;
  /** Properties that are optional in the canonical schema: `null` there means absent. */
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

const IDENTITY: ArgumentRestorer = (args) => args;
const PLANS = new WeakMap<object, Plan | null>();

/**
 * True when arguments lowered for `provider` with `options` need mapping back: OpenAI's strict
 * form makes optionals required-and-nullable, so a `null` there means "absent".
 *
 * @example
 * loweringRestoresArguments('openai', { strict: true }); // true
 * loweringRestoresArguments('anthropic');                // false
 */
export function loweringRestoresArguments(provider: ProviderName, options: LoweringOptions = {}): boolean {
  return (provider === 'openai' || provider === 'openai-responses') && options.strict === true;
}

/**
 * Maps arguments a model produced against a lowered schema back to the canonical one: for the
 * OpenAI strict form, a `null` for a property that is optional in the canonical `schema` is
 * removed (recursively: nested objects, arrays of objects, union branches, local `$ref`s).
 * For the other lowerings the arguments are returned as they are. Never mutates `args`
 * (a changed object is a copy; unchanged parts are shared).
 *
 * @example
 * restoreArguments(weatherSchema, { city: 'Paris', days: null }, 'openai', { strict: true });
 * // → { city: 'Paris' }
 */
export function restoreArguments(
  schema: ObjectJsonSchema,
  args: Record<string, unknown>,
  provider: ProviderName,
  options: LoweringOptions = {},
): Record<string, unknown> {
  if (!loweringRestoresArguments(provider, options)) return args;
  const plan = planOf(schema);
  return plan === null ? args : (apply(plan, args) as Record<string, unknown>);
}

/**
 * Precomputes {@link restoreArguments} for one schema: the walk over the schema is done once,
 * and the returned function only visits the parts of the arguments that can change. Plans are
 * cached per schema object.
 *
 * @example
 * const restore = compileArgumentRestorer(tool.parameters, 'openai', { strict: true });
 * const args = restore(JSON.parse(call.arguments));
 */
export function compileArgumentRestorer(
  schema: ObjectJsonSchema,
  provider: ProviderName,
  options: LoweringOptions = {},
): ArgumentRestorer {
  if (!loweringRestoresArguments(provider, options)) return IDENTITY;
  const plan = planOf(schema);
  if (plan === null) return IDENTITY;
  return (args) => apply(plan, args) as Record<string, unknown>;
}

function planOf(schema: ObjectJsonSchema): Plan | null {
  let plan = PLANS.get(schema);
  if (plan === undefined) {
    plan = build(schema, schema, new Map()) ?? null;
    PLANS.set(schema, plan);
  }
  return plan;
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
    const required = new Set(schema.required ?? []);
    const keys = new Set(Object.keys(schema.properties));
    const optional = new Set([...keys].filter((k) => !required.has(k)));
    const children = new Map<string, Plan>();
    for (const [name, child] of Object.entries(schema.properties)) {
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
      value.forEach((item, i) => {
        const next = apply(plan.items, item);
        if (next !== item) (out ??= [...value])[i] = next;
      });
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
  for (const [key, v] of Object.entries(value)) {
    if (v === null && plan.optional.has(key)) {
      out ??= { ...value };
      delete out[key];
      continue;
    }
    const child = plan.children.get(key);
    if (child === undefined) continue;
    const next = apply(child, v);
    if (next !== v) (out ??= { ...value })[key] = next;
  }
  return out ?? value;
}

/** The branch that fits a value best: for objects, the first whose properties cover its keys. */
function pickBranch(branches: readonly Plan[], value: unknown): Plan | undefined {
  if (Array.isArray(value)) return branches.find((b) => deref(b)?.kind === 'array');
  if (!isPlainObject(value)) return undefined;
  const objects = branches.map(deref).filter((b): b is ObjectPlan => b?.kind === 'object');
  const keys = Object.keys(value);
  return objects.find((b) => keys.every((k) => b.keys.has(k))) ?? objects[0];
}
