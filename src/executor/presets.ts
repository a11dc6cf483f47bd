import type { ContainerPreset } from '../di/container-preset';
import type { ToolCallContext } from '../common/agent-tool';
import { ToolkitError } from '../errors';

/** A preset computed at call time (for example read from a secret store). */
export type PresetResolver = (ctx: ToolCallContext) => unknown;

/**
 * The value of a hidden parameter: a plain value, a function evaluated at call time, or
 * {@link fromContainer}. To pass a function itself as the value, wrap it: `() => fn`.
 */
export type PresetValue = PresetResolver | ContainerPreset | string | number | boolean | object | null;

/**
 * Presets by tool name, then parameter name. A resource's or a prompt's presets go under
 * `'resource:<name>'` or `'prompt:<name>'`.
 */
export type PresetMap = Record<string, Record<string, PresetValue>>;

/** @internal A preset bound to one parameter at registration. */
export interface BoundPreset {
  readonly name: string;
  readonly value: PresetValue;
}

/**
 * @internal The presets registration binds to one tool, resource or prompt (`what`, e.g. `tool
 * 'send_email'`, registered under `key` of the preset map), checked against its parameters:
 * `visible` are those a preset may fill, `declared` those `@ToolParam({ preset: true })` says
 * must be filled.
 *
 * A declared preset left unbound stays hidden and gets a placeholder that fails with
 * `PRESET_UNBOUND` when resolved: the registration refuses it unless a route to workers takes the
 * tool (see `checkRegistration`), so only a routed tool run outside its route could reach it.
 *
 * @throws ToolkitError `INVALID_DEFINITION` for a preset naming no parameter.
 */
export function bindPresets(
  owner: string,
  what: string,
  key: string,
  presets: Readonly<Record<string, PresetValue>> | undefined,
  visible: readonly string[],
  declared: readonly string[] = [],
): BoundPreset[] | undefined {
  const list = Object.entries(presets ?? {}).map(([param, value]) => ({ name: param, value }));
  const unknown = list.filter((p) => !visible.includes(p.name));
  if (unknown.length) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner}: preset(s) ${unknown.map((p) => `'${p.name}'`).join(', ')} match no parameter of ${what}. Its parameters: ${visible.join(', ') || '(none)'}.`,
      { tool: key },
    );
  }
  for (const name of declared) if (!list.some((p) => p.name === name)) list.push({ name, value: unboundPreset(what, key, name) });
  return list.length ? list : undefined;
}

const UNBOUND = Symbol('toolwright.preset.unbound');

/** @internal The preset of a declared parameter no registration bound here: resolving it fails with `PRESET_UNBOUND`. */
function unboundPreset(what: string, key: string, name: string): PresetResolver {
  const resolve = (): never => {
    throw new ToolkitError(
      'PRESET_UNBOUND',
      `${what[0].toUpperCase()}${what.slice(1)} cannot run in this process: its preset parameter '${name}' is bound only on the workers that run it. ` +
        'Route it to them (queueTools from toolwright/bullmq), or bind the preset here with presetParameters.',
      { tool: key },
    );
  };
  return Object.assign(resolve, { [UNBOUND]: true });
}

/** @internal True for the preset of a declared parameter that no registration bound in this process. */
export function isUnboundPreset(value: PresetValue): boolean {
  return typeof value === 'function' && UNBOUND in value;
}
