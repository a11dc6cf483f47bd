import type { ContainerPreset } from '../di/container-preset';
import type { ToolCallContext } from '../common/agent-tool';

/** A preset computed at call time (for example read from a secret store). */
export type PresetResolver = (ctx: ToolCallContext) => unknown;

/**
 * The value of a hidden parameter: a plain value, a function evaluated at call time, or
 * {@link fromContainer}. To pass a function itself as the value, wrap it: `() => fn`.
 */
export type PresetValue = PresetResolver | ContainerPreset | string | number | boolean | object | null;

/** Presets by tool name, then parameter name. */
export type PresetMap = Record<string, Record<string, PresetValue>>;
