import type { ToolCallContext } from '../common/agent-tool';

const FROM_CONTAINER = Symbol.for('toolwright.preset.fromContainer');

/** A preset resolved from the Inversify container at call time. */
export interface ContainerPreset {
  readonly [FROM_CONTAINER]: true;
  /** The service identifier to resolve. */
  readonly token: unknown;
}

/** A preset computed at call time (for example read from a secret store). */
export type PresetResolver = (ctx: ToolCallContext) => unknown;

/**
 * The value of a hidden parameter: a plain value, a function evaluated at call time, or
 * {@link fromContainer}. To pass a function itself as the value, wrap it: `() => fn`.
 */
export type PresetValue = PresetResolver | ContainerPreset | string | number | boolean | object | null;

/** Presets by tool name, then parameter name. */
export type PresetMap = Record<string, Record<string, PresetValue>>;

/**
 * A preset resolved from the toolkit's Inversify container at call time.
 *
 * @example
 * .presetParameters({ send_email: { apiKey: fromContainer(EMAIL_API_KEY) } })
 */
export function fromContainer(token: unknown): ContainerPreset {
  return { [FROM_CONTAINER]: true, token };
}

/** @internal */
export function isContainerPreset(value: unknown): value is ContainerPreset {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[FROM_CONTAINER] === true;
}
