import { ToolkitError } from '../errors';
import { Principal } from './principal';

/** A class (possibly abstract) used as the key of a context object. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ContextType<T = unknown> = abstract new (...args: any[]) => T;

/** What identifies a context value: its class, or a symbol/string token for non-class values. */
export type ContextKey<T = unknown> = ContextType<T> | symbol | string;

/**
 * A typed bag of context objects (user, tenant, session…) injected into tool parameters by
 * their class. Immutable once built; build one per level (toolkit, agent, call). When a tool
 * runs, the levels form a priority chain: call over agent over toolkit.
 *
 * @example
 * const context = ToolExecutionContext.builder().register(new UserContext('u-1')).build();
 * await toolkit.callTool(call, { context });
 */
export class ToolExecutionContext {
  /** An empty context. */
  static readonly EMPTY: ToolExecutionContext = new ToolExecutionContext(new Map());

  private constructor(private readonly values: ReadonlyMap<ContextKey, unknown>) {}

  /** Starts building a context. */
  static builder(): ToolExecutionContextBuilder {
    return new ToolExecutionContextBuilder();
  }

  /** Builds a context from instances (each keyed by its class). */
  static of(...instances: object[]): ToolExecutionContext {
    const builder = ToolExecutionContext.builder();
    for (const instance of instances) builder.register(instance);
    return builder.build();
  }

  /**
   * One context from several levels, lowest priority first: a key registered at a later level
   * wins. Undefined levels are skipped; a single level is returned as it is.
   *
   * @example
   * const merged = ToolExecutionContext.merge(toolkitContext, agentContext, callContext);
   */
  static merge(...levels: (ToolExecutionContext | undefined)[]): ToolExecutionContext {
    const present = levels.filter((level): level is ToolExecutionContext => level !== undefined && level.size > 0);
    if (present.length === 0) return ToolExecutionContext.EMPTY;
    if (present.length === 1) return present[0];
    const values = new Map<ContextKey, unknown>();
    for (const level of present) for (const [key, value] of level.values) values.set(key, value);
    return new ToolExecutionContext(values);
  }

  /** @internal */
  static fromMap(values: ReadonlyMap<ContextKey, unknown>): ToolExecutionContext {
    return new ToolExecutionContext(values);
  }

  /** The value registered under `key` at this level, or `undefined`. */
  get<T>(key: ContextKey<T>): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  /** True when a value is registered under `key` at this level. */
  has(key: ContextKey): boolean {
    return this.values.has(key);
  }

  /** The keys registered at this level. */
  keys(): ContextKey[] {
    return [...this.values.keys()];
  }

  /** The number of values at this level. */
  get size(): number {
    return this.values.size;
  }

  /** A new builder that starts from this context's values. */
  toBuilder(): ToolExecutionContextBuilder {
    const builder = new ToolExecutionContextBuilder();
    for (const [key, value] of this.values) builder.register(key as ContextKey<unknown>, value);
    return builder;
  }
}

/** Builds a {@link ToolExecutionContext}. */
export class ToolExecutionContextBuilder {
  private readonly values = new Map<ContextKey, unknown>();

  /**
   * Registers a context object under its own class, or a value under an explicit key
   * (a class such as an abstract base, a symbol or a string). An instance of a subclass of
   * {@link Principal} is registered under `Principal` too (unless one is already), so that
   * authorization and parameters typed `Principal` find it.
   */
  register<T extends object>(instance: T): this;
  register<T>(key: ContextKey<T>, value: T): this;
  register(keyOrInstance: unknown, value?: unknown): this {
    if (arguments.length >= 2) {
      this.values.set(keyOrInstance as ContextKey, value);
      return this;
    }
    if (typeof keyOrInstance !== 'object' || keyOrInstance === null) {
      throw new ToolkitError(
        'INVALID_CONTEXT',
        'ToolExecutionContext.register(instance) needs an object (its class is the key); ' + 'use register(key, value) for primitive values.',
      );
    }
    this.values.set((keyOrInstance as object).constructor as ContextType, keyOrInstance);
    if (keyOrInstance instanceof Principal && !this.values.has(Principal)) this.values.set(Principal, keyOrInstance);
    return this;
  }

  /** Freezes the values into a context. */
  build(): ToolExecutionContext {
    return ToolExecutionContext.fromMap(new Map(this.values));
  }
}
