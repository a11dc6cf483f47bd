import type { ContextResolver, ToolBehaviour } from '../model/agent-tool';
import type { ContextKey } from '../model/execution-context';
import type { JsonSchema } from '../model/json-schema';
import type { StandardSchemaLike } from '../model/standard-schema';

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
  /**
   * A JSON Schema fragment merged over the inferred schema (explicit always wins), or a Standard
   * Schema object (zod 4, valibot, arktype) that says the whole type: the argument is validated by
   * its library (the tool gets the library's output) and the model sees its JSON Schema conversion.
   */
  schema?: JsonSchema | StandardSchemaLike | undefined;
  /** What reflection cannot see: `() => [String]`, `() => AddressDto`, `() => Unit`. */
  type?: (() => TypeHint) | undefined;
  /**
   * The value the method gets when the model leaves the parameter out: it makes the parameter
   * optional, is shown to the model as the schema's `default`, and its `typeof` names the type
   * where nothing else does (no decorator metadata, no manifest): `default: 3` is a number.
   */
  default?: string | number | boolean | undefined;
  /** Integer instead of number. Shorthand for `schema: { type: 'integer' }`. */
  integer?: boolean | undefined;
  /** Allowed values (an enum object or a list). */
  enum?: EnumLike | undefined;
  /**
   * A hidden parameter (an API key, a tenant id): it never appears in any schema. Bind it with
   * `presetParameters` when registering the tool, or route the tool to workers (`queueTools` from
   * `toolwright/bullmq`, before or after the registration), which bind it: it is hidden on the
   * caller. A tool left unbound and unrouted gets a `TOOLWRIGHT_PRESET_UNBOUND` process warning, and
   * its calls fail with `PRESET_UNBOUND`; a resource or prompt left unbound is an
   * `INVALID_DEFINITION` registration error (it runs where it is registered).
   */
  preset?: boolean | undefined;
}

/**
 * What a completion callback gets besides the text typed so far.
 *
 * @example
 * complete: (value, { arguments: args }) => cities(args.country).filter((c) => c.startsWith(value))
 */
export interface CompletionContext {
  /** What the client has filled in of the other arguments (or template variables). */
  readonly arguments: Readonly<Record<string, string>>;
  /** The caller's context objects (call > toolkit, then the container). */
  readonly context: ContextResolver;
  /** Fires when the client cancels or the completion runs out of time. */
  readonly signal: AbortSignal;
  /** The session asking, if any. */
  readonly sessionId?: string | undefined;
}

/**
 * Suggests values for a prompt argument or a template variable from what was typed so far
 * (MCP `completion/complete`). At most 100 values are sent; a callback that throws, rejects or
 * runs out of time answers no values, and its failure is a `callback_failed` event.
 */
export type CompleteCallback = (value: string, context: CompletionContext) => readonly string[] | Promise<readonly string[]>;

/**
 * Options of `@PromptArg` and `@ResourceParam`: those of `@ToolParam`, plus `complete`. The value
 * arrives as text (MCP sends strings) and is converted to the parameter's type (`number`,
 * `integer`, `boolean`, a `Date`, a `string[]` for an exploded variable) before validation.
 */
export interface PromptArgOptions extends ToolParamOptions {
  /** Suggests values for the argument as the user types (MCP completion). An `enum` completes without one. */
  complete?: CompleteCallback | undefined;
}

/** Options of `@ResourceParam` (see {@link PromptArgOptions}). */
export type ResourceParamOptions = PromptArgOptions;

/** MCP annotations of a resource: who it is for, how important it is, when it last changed. */
export interface ResourceAnnotations {
  /** Who the content is meant for. */
  audience?: ('user' | 'assistant')[] | undefined;
  /** 0 (optional) to 1 (required). */
  priority?: number | undefined;
  /** ISO 8601 time of the last change. */
  lastModified?: string | undefined;
}

/** Options of `@Resource` and `@Prompt` both. */
export interface CatalogMemberOptions {
  /** The name clients and presets use (default: the method name in snake_case). */
  name?: string | undefined;
  /** A human-readable title. */
  title?: string | undefined;
  /** The group it belongs to (default: the `@ToolService` group); listed and readable only while that group is on. */
  group?: string | undefined;
  /** The longest a read (or a prompt) may take, in ms (default: the toolkit's `execution.timeoutMs`; `0`: none). */
  timeoutMs?: number | undefined;
}

/** What `@Resource` says of one resource besides where it lives. */
export interface ResourceDetails extends CatalogMemberOptions {
  /** What the resource holds. */
  description?: string | undefined;
  /** The MIME type of its content (`text/markdown`, `application/json`, `image/png`…). */
  mimeType?: string | undefined;
  /** Audience, priority, last change. */
  annotations?: ResourceAnnotations | undefined;
}

/**
 * Options of `@Resource`: a fixed `uri` (listed by `resources/list`) or an RFC 6570 `uriTemplate`
 * whose variables are parameters of the method (listed by `resources/templates/list`).
 */
export type ResourceOptions = ResourceDetails &
  ({ uri: string; uriTemplate?: undefined; size?: number | undefined } | { uriTemplate: string; uri?: undefined });

/** Options of `@Prompt`. */
export interface PromptOptions extends CatalogMemberOptions {
  /** What the prompt is for (required unless the manifest has the method's JSDoc). */
  description?: string | undefined;
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

/** @internal What `@Resource` or `@Prompt` records on a method. */
export interface CatalogMethodRecord<O> {
  readonly methodName: string;
  readonly options: O;
}

/** @internal What `@ToolParam` and `@InjectContext` record on a parameter (both: a definition error). */
export interface ToolParamRecord {
  /** `@ToolParam`'s options: the model (or a preset) fills the parameter. */
  readonly options?: ToolParamOptions;
  /** `@PromptArg` / `@ResourceParam`'s completion callback. */
  readonly complete?: CompleteCallback;
  /** `@InjectContext`'s key: the call's context fills the parameter. */
  readonly context?: ContextKey;
}

/** @internal Everything the decorators recorded on one class prototype. */
export interface ClassRecords {
  service?: ToolServiceOptions;
  readonly tools: Map<string, ToolMethodRecord>;
  readonly resources: Map<string, CatalogMethodRecord<ResourceOptions>>;
  readonly prompts: Map<string, CatalogMethodRecord<PromptOptions>>;
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
    const records: ClassRecords = { tools: new Map(), resources: new Map(), prompts: new Map(), params: new Map() };
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

/** @internal The `@Tool`, `@Resource` and `@Prompt` methods recorded on `target` itself (for a class: its static methods). */
export function ownToolNames(target: object): string[] {
  if (!Object.prototype.hasOwnProperty.call(target, RECORDS)) return [];
  const records = (target as Record<symbol, ClassRecords>)[RECORDS];
  return [...records.tools.keys(), ...records.resources.keys(), ...records.prompts.keys()];
}

/** @internal True when `prototype` (or an ancestor) has `@Tool`, `@Resource` or `@Prompt` methods. */
export function hasToolMethods(prototype: object): boolean {
  return recordChain(prototype).some((records) => records.tools.size + records.resources.size + records.prompts.size > 0);
}

/** @internal The records of a class and its ancestors merged into one view; a subclass's records win. */
export interface MergedRecords {
  /** The nearest `@ToolService` options (empty when there are none). */
  readonly service: ToolServiceOptions;
  /** Every `@Tool` method, by method name. */
  readonly methods: ReadonlyMap<string, ToolMethodRecord>;
  /** Every `@Resource` method, by method name. */
  readonly resources: ReadonlyMap<string, CatalogMethodRecord<ResourceOptions>>;
  /** Every `@Prompt` method, by method name. */
  readonly prompts: ReadonlyMap<string, CatalogMethodRecord<PromptOptions>>;
  /** What the parameter decorators recorded on the parameters of one method. */
  params(methodName: string): ParamRecords;
}

/**
 * @internal What `@ToolParam`, `@InjectContext`, `@PromptArg` and `@ResourceParam` recorded on the
 * parameters of one method (a subclass's records win), read by parameter index: the options, the
 * context key and the completion callback, each as the decorator was given it.
 */
export class ParamRecords {
  /** One more than the highest decorated index (0 when no parameter is decorated). */
  readonly extent: number;

  constructor(private readonly byIndex: ReadonlyMap<number, ToolParamRecord>) {
    this.extent = Math.max(0, ...[...byIndex.keys()].map((index) => index + 1));
  }

  /** True when parameter `index` carries one of the decorators. */
  has(index: number): boolean {
    return this.byIndex.has(index);
  }

  /** `@ToolParam`'s options of parameter `index`: the model (or a preset) fills it. */
  options(index: number): ToolParamOptions | undefined {
    return this.byIndex.get(index)?.options;
  }

  /** `@InjectContext`'s key of parameter `index`: the call's context fills it. */
  context(index: number): ContextKey | undefined {
    return this.byIndex.get(index)?.context;
  }

  /** `@PromptArg` / `@ResourceParam`'s completion callback of parameter `index`. */
  complete(index: number): CompleteCallback | undefined {
    return this.byIndex.get(index)?.complete;
  }
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
  const resources = new Map<string, CatalogMethodRecord<ResourceOptions>>();
  const prompts = new Map<string, CatalogMethodRecord<PromptOptions>>();
  for (const records of rootFirst) {
    for (const [k, v] of records.tools) methods.set(k, v);
    for (const [k, v] of records.resources) resources.set(k, v);
    for (const [k, v] of records.prompts) prompts.set(k, v);
  }
  const params = (methodName: string): ParamRecords => {
    const merged = new Map<number, ToolParamRecord>();
    for (const records of rootFirst) {
      for (const [index, record] of records.params.get(methodName) ?? []) merged.set(index, record);
    }
    return new ParamRecords(merged);
  };
  return { service, methods, resources, prompts, params };
}
