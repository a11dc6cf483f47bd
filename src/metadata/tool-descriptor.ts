import type { ToolBehaviour } from '../model/agent-tool';
import type { ContextKey } from '../model/execution-context';
import type { JsonSchema, ReadonlyJsonSchema } from '../model/json-schema';
import type { StandardSchemaLike } from '../model/standard-schema';
import type { Constructor } from './records';

/** A parameter the model fills. */
export interface ModelParamDescriptor {
  readonly kind: 'model';
  readonly index: number;
  readonly name: string;
  readonly required: boolean;
  /** Deep-frozen: the tool's schema shares it. */
  readonly schema: ReadonlyJsonSchema;
  /** Set when the argument must become a class instance (class-transformer + class-validator). */
  readonly dto?: { readonly type: Constructor; readonly array: boolean };
  /** Set when the argument (or each item, for arrays) must become a `Date`. */
  readonly date?: boolean;
  /** Set for `@ToolParam({ schema })` given a Standard Schema: its library validates the argument (`schema` is its conversion). */
  readonly standard?: StandardSchemaLike;
  /** `@ToolParam({ default })`: what the method gets when the argument is absent. */
  readonly default?: string | number | boolean;
  /** Set for `@ToolParam({ preset: true })`: never visible; bound at registration, or on the workers of a route that takes the tool (`PRESET_UNBOUND` where neither). */
  readonly preset?: boolean;
}

/** A parameter the toolkit fills by type. */
export interface InjectedParamDescriptor {
  readonly kind: 'emitter' | 'signal' | 'client' | 'context';
  readonly index: number;
  /** For context parameters: the key (a class, or an `@InjectContext` token) to look up along the context chain. */
  readonly type?: ContextKey;
  readonly typeName?: string;
}

/** Any parameter of a decorated tool method: its kind says who fills it (the model, or the toolkit by type). */
export type ParamDescriptor = ModelParamDescriptor | InjectedParamDescriptor;

/** The checked, frozen description of one decorated tool method. */
export interface ToolDescriptor {
  readonly className: string;
  readonly methodName: string;
  readonly name: string;
  readonly description: string;
  readonly behaviour: ToolBehaviour;
  readonly params: readonly ParamDescriptor[];
  readonly returns?: JsonSchema;
}
