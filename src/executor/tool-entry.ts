import type { NullStripper } from '../schema/null-optionals';
import type { ValidateFunction } from 'ajv';
import type { AgentTool, ToolBehaviour } from '../model/agent-tool';
import type { ObjectJsonSchema } from '../model/json-schema';
import type { StandardSchemaLike } from '../model/standard-schema';
import type { ToolSchema } from '../model/tool-types';
import type { Constructor } from '../metadata/records';
import type { PresetValue } from './presets/presets';

/** Where an enabled tool comes from. */
export type ToolSource = 'component' | 'global' | 'skill';

/** One registered tool with everything the executor needs (not exported by the package). */
export interface ToolEntry {
  readonly name: string;
  /** `Class.method` or `AgentTool 'name'`: used in duplicate errors. */
  readonly owner: string;
  readonly group?: string;
  /** Global tools (the toolkit's meta tools) stay enabled under a skill. */
  readonly source: ToolSource;
  readonly behaviour: ToolBehaviour;
  /** The tool as users see it: its `parameters` never show presets. */
  readonly tool: AgentTool;
  /** The executable tool (the user's object or a MethodTool). */
  readonly target: AgentTool;
  readonly schema: ObjectJsonSchema;
  readonly definition: ToolSchema;
  readonly presets?: readonly { readonly name: string; readonly value: PresetValue }[];
  readonly dtos?: readonly { readonly name: string; readonly type: Constructor; readonly array: boolean }[];
  /** Arguments their own Standard Schema library validates (no `name`: the whole input); its output replaces them. */
  readonly standard?: readonly { readonly name?: string; readonly schema: StandardSchemaLike }[];
  /** What the compiled validator checks, when not `schema`: the parts a Standard Schema library validates are left to it. */
  readonly checkSchema?: ObjectJsonSchema;
  /** Removes the `null`s that mean "absent" (see `nullStripper`); `undefined` when none can. Made on first use. */
  readonly stripNulls: NullStripper | undefined;
  readonly contextual: boolean;
  validator?: ValidateFunction;
  /** With `checkSchema`: the validator of `schema` itself, for arguments a hook rewrote. Made on first use. */
  convertedValidator?: ValidateFunction;
}
