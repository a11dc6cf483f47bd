import type { ContainerPreset } from '../../di/container-preset';
import type { ToolCallContext } from '../../model/agent-tool';
import { ToolkitError } from '../../errors';

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
 * `PRESET_UNBOUND` when resolved, naming the fixes: a tool (`routable`) may be bound on the
 * workers a route sends it to (`queueTools`, set up before or after the registration), which never
 * resolve its presets here; a resource or prompt is refused at registration instead (see
 * `CatalogBatch.checkPresets`).
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
  routable = false,
): BoundPreset[] | undefined {
  const list = Object.entries(presets ?? {}).map(([param, value]) => ({ name: param, value }));
  const unknown = list.filter((p) => !visible.includes(p.name));
  if (unknown.length) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner}: preset(s) ${quotedNames(unknown.map((p) => p.name))} match no parameter of ${what}. Its parameters: ${visible.join(', ') || '(none)'}.`,
      { tool: key },
    );
  }
  const unbound = declared.filter((name) => !list.some((p) => p.name === name));
  if (unbound.length) {
    const fail = unboundPreset(
      key,
      `${what[0].toUpperCase()}${what.slice(1)} cannot run in this process: its preset parameter(s) ${quotedNames(unbound)} (preset: true) ` +
        `are bound nowhere here${routable ? ', and no route to workers takes it' : ''}. ${unboundPresetFixes(owner, key, unbound, routable)}`,
    );
    for (const name of unbound) list.push({ name, value: fail });
  }
  return list.length ? list : undefined;
}

/** A property name as it is written in an object literal. */
const property = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);

/** @internal `'a', 'b'`: parameter names in messages. */
export const quotedNames = (names: readonly string[]): string => names.map((name) => `'${name}'`).join(', ');

/**
 * @internal The registration that binds the presets `names` of `key` (a tool name, or
 * `resource:<name>` / `prompt:<name>`) declared by `owner` (`Class.method`), as code to copy.
 */
export function presetBinding(owner: string, key: string, names: readonly string[]): string {
  const bound = names.map((name) => `${property(name)}: …`).join(', ');
  return `toolkit.registration().tool(${owner.slice(0, owner.lastIndexOf('.'))}).presetParameters({ ${property(key)}: { ${bound} } }).apply()`;
}

/**
 * @internal How to give a value to the presets `names` of `key` that nothing binds: the
 * `presetParameters` call and, for a tool (`routable`), a route to the workers that bind them.
 * The same words in the registration warning and the error of a call.
 */
export function unboundPresetFixes(owner: string, key: string, names: readonly string[], routable: boolean): string {
  const them = names.length === 1 ? 'it' : 'them';
  const bind = `Bind ${them} when registering: ${presetBinding(owner, key, names)} (a function or fromContainer(token) is read at each call)`;
  if (!routable) return `${bind}.`;
  return (
    `${bind}, or, if workers run the tool, route it to them: queueTools(toolkit, { tools: ['${key}'], … }) from toolwright/bullmq once it is registered ` +
    `(or { groups: […] } naming its group, before or after), which hides ${them} on the caller and binds ${them} on the workers (createToolWorker).`
  );
}

const UNBOUND = Symbol('toolwright.preset.unbound');

/** @internal The preset of declared parameters no registration bound here: resolving it fails with `PRESET_UNBOUND` and `message`. */
function unboundPreset(key: string, message: string): PresetResolver {
  const resolve = (): never => {
    throw new ToolkitError('PRESET_UNBOUND', message, { tool: key });
  };
  return Object.assign(resolve, { [UNBOUND]: true });
}

/** @internal True for the preset of a declared parameter that no registration bound in this process. */
export function isUnboundPreset(value: PresetValue): boolean {
  return typeof value === 'function' && UNBOUND in value;
}

/** @internal The names of the declared presets (`preset: true`) among `presets` that no registration bound. */
export function unboundPresetNames(presets: readonly BoundPreset[] | undefined): string[] {
  return (presets ?? []).filter((preset) => isUnboundPreset(preset.value)).map((preset) => preset.name);
}
