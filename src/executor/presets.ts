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
 * @throws ToolkitError `INVALID_DEFINITION` for a preset naming no parameter, or a declared preset left unbound.
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
  const unbound = declared.filter((name) => !list.some((p) => p.name === name));
  if (unbound.length) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner}: parameter(s) ${unbound.map((n) => `'${n}'`).join(', ')} are declared preset (@ToolParam({ preset: true })) but no preset ` +
        `is bound. Register with .presetParameters({ ${/^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`}: { ${unbound[0]}: … } }) (a value, a function, or fromContainer(token)).`,
      { tool: key },
    );
  }
  return list.length ? list : undefined;
}
