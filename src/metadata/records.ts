import type { ToolBehaviour } from '../common/agent-tool';
import type { ContextKey } from '../common/execution-context';
import type { JsonSchema } from '../common/json-schema';

/** A class, for `type` thunks and DTOs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Constructor<T = unknown> = new (...args: any[]) => T;

/** An enum object (`enum Unit { C = 'c' }`) or a list of allowed values. */
export type EnumLike = Record<string, string | number> | readonly (string | number | boolean)[];

/**
 * What a `type` thunk of `@ToolParam` may return: a class (a DTO, `String`, `Number`, `Date`…),
 * a one-element array of one for arrays (`() => [AddressDto]`), an enum object, or a
 * one-element array of an enum object for arrays of enum values (`() => [Unit]`).
 */
export type TypeHint = Constructor | [Constructor] | EnumLike | [Record<string, string | number>];

/** Options of `@Tool`. */
export interface ToolOptions extends ToolBehaviour {
  /** The tool's name (default: the method name in snake_case). */
  name?: string | undefined;
  /** What the tool does (required unless the build-time manifest has the method's JSDoc). */
  description?: string | undefined;
}

/** Options of `@ToolParam`. */
export interface ToolParamOptions {
  /** The parameter's name as the model sees it (required unless the manifest has it). */
  name?: string | undefined;
  /** What the parameter means, for the model. */
  description?: string | undefined;
  /** Whether the model must send it (default `true`). */
  required?: boolean | undefined;
  /** A JSON Schema fragment merged over the inferred schema (explicit always wins). */
  schema?: JsonSchema | undefined;
  /** What reflection cannot see: `() => [String]`, `() => AddressDto`, `() => Unit`. */
  type?: (() => TypeHint) | undefined;
  /** Integer instead of number. Shorthand for `schema: { type: 'integer' }`. */
  integer?: boolean | undefined;
  /** Allowed values (an enum object or a list). */
  enum?: EnumLike | undefined;
  /**
   * A hidden parameter (an API key, a tenant id): it never appears in any schema, and registering
   * the tool without binding a preset for it is a definition-time error.
   */
  preset?: boolean | undefined;
}

/** Options of `@ToolService`. */
export interface ToolServiceOptions {
  /** The group every tool of the class joins unless its `@Tool` names another. */
  group?: string | undefined;
}

/** @internal What `@Tool` records on a method. */
export interface ToolMethodRecord {
  readonly methodName: string;
  readonly options: ToolOptions;
}

/** @internal What `@ToolParam` and `@InjectContext` record on a parameter (both: a definition error). */
export interface ToolParamRecord {
  /** `@ToolParam`'s options: the model (or a preset) fills the parameter. */
  readonly options?: ToolParamOptions;
  /** `@InjectContext`'s key: the call's context fills the parameter. */
  readonly context?: ContextKey;
}

/** @internal Everything the decorators recorded on one class prototype. */
export interface ClassRecords {
  service?: ToolServiceOptions;
  readonly tools: Map<string, ToolMethodRecord>;
  readonly params: Map<string, Map<number, ToolParamRecord>>;
}

const RECORDS = Symbol.for('toolwright.records');

/**
 * @internal The records stored on `target` itself (a class prototype), created on first write.
 * Records live on the class, not in a global registry: nothing for tests to reset, and two copies
 * of toolwright read the same records.
 */
export function ownRecords(target: object): ClassRecords {
  if (!Object.prototype.hasOwnProperty.call(target, RECORDS)) {
    const records: ClassRecords = { tools: new Map(), params: new Map() };
    Object.defineProperty(target, RECORDS, { value: records, enumerable: false });
  }
  return (target as Record<symbol, ClassRecords>)[RECORDS];
}

/** @internal The records of `prototype` and its ancestors, nearest first. */
export function recordChain(prototype: object): ClassRecords[] {
  const chain: ClassRecords[] = [];
  for (let p: object | null = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.prototype.hasOwnProperty.call(p, RECORDS)) chain.push((p as Record<symbol, ClassRecords>)[RECORDS]);
  }
  return chain;
}

/** @internal The `@Tool` methods recorded on `target` itself (for a class: its static methods). */
export function ownToolNames(target: object): string[] {
  if (!Object.prototype.hasOwnProperty.call(target, RECORDS)) return [];
  return [...(target as Record<symbol, ClassRecords>)[RECORDS].tools.keys()];
}

/** @internal True when `prototype` (or an ancestor) has `@Tool` methods. */
export function hasToolMethods(prototype: object): boolean {
  return recordChain(prototype).some((records) => records.tools.size > 0);
}

/** @internal The records of a class and its ancestors merged into one view; a subclass's records win. */
export interface MergedRecords {
  /** The nearest `@ToolService` options (empty when there are none). */
  readonly service: ToolServiceOptions;
  /** Every `@Tool` method, by method name. */
  readonly methods: ReadonlyMap<string, ToolMethodRecord>;
  /** The `@ToolParam` / `@InjectContext` records of one method, by parameter index. */
  params(methodName: string): Map<number, ToolParamRecord>;
}

/**
 * @internal Merges `update` into what the decorators recorded on parameter `index` of `methodName`
 * (a parameter may carry both decorators: the builder reports that as a definition error).
 */
export function recordParam(target: object, methodName: string, index: number, update: ToolParamRecord): void {
  const records = ownRecords(target);
  let params = records.params.get(methodName);
  if (!params) records.params.set(methodName, (params = new Map()));
  params.set(index, { ...params.get(index), ...update });
}

/** @internal Merges the records of `prototype` and its ancestors (see {@link MergedRecords}). */
export function mergedRecords(prototype: object): MergedRecords {
  const chain = recordChain(prototype);
  const service: ToolServiceOptions = chain.find((r) => r.service)?.service ?? {};
  // Merged from the root class down, so a subclass's records win.
  const rootFirst = [...chain].reverse();
  const methods = new Map<string, ToolMethodRecord>();
  for (const records of rootFirst) for (const [k, v] of records.tools) methods.set(k, v);
  const params = (methodName: string): Map<number, ToolParamRecord> => {
    const merged = new Map<number, ToolParamRecord>();
    for (const records of rootFirst) {
      for (const [index, record] of records.params.get(methodName) ?? []) merged.set(index, record);
    }
    return merged;
  };
  return { service, methods, params };
}
