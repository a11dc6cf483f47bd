import { ToolkitError } from '../errors';
import { isUnboundPreset, type BoundPreset } from '../executor/presets';
import type { RemoteRouter } from '../executor/remote-types';
import type { ToolEntry } from '../executor/tool-entry';
import { presetKey, type CatalogEntry } from '../resources/catalog-entry';

/** The names of the declared presets (`preset: true`) no registration bound. */
function unboundNames(presets: readonly BoundPreset[] | undefined): string[] {
  return (presets ?? []).filter((preset) => isUnboundPreset(preset.value)).map((preset) => preset.name);
}

const quoted = (names: readonly string[]): string => names.map((name) => `'${name}'`).join(', ');

/** A property name as it is written in an object literal. */
const property = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);

/** `{ key: { a: …, b: … } }` as the presetParameters argument that binds `names` of `key`. */
function presetsArgument(key: string, names: readonly string[]): string {
  return `{ ${property(key)}: { ${names.map((name) => `${property(name)}: …`).join(', ')} } }`;
}

/** The class of `Class.method` (the owner of a decorated tool, resource or prompt). */
const classOf = (owner: string): string => owner.slice(0, owner.lastIndexOf('.'));

/** How a tool in `group` (or in none) gets routed to workers before it is registered. */
function routeFirst(group: string | undefined): string {
  const route = group === undefined ? "put it in a group (.group('reports')), route that group with" : `route its group first:`;
  const groups = group === undefined ? "'reports'" : `'${group}'`;
  return `${route} queueTools(toolkit, { groups: [${groups}], … }) from toolwright/bullmq, then register it (the workers bind the preset)`;
}

/**
 * @internal Checks what a registration registers before anything is added: the routes that take a
 * tool admit it (`RemoteRouter.admit`), and every parameter hidden with `preset: true` gets a value somewhere:
 * a `presetParameters` binding (a plain value, or a function / `fromContainer` read at each call),
 * or, for a tool, the workers a route already sends it to (`queueTools`, which must come first). A
 * preset left unbound otherwise would fail every call, so it fails the registration instead,
 * naming the member, the parameter and both fixes. Never quotes a preset value.
 *
 * @throws ToolkitError `INVALID_DEFINITION`, or what a route's `admit` throws (`INVALID_CONTEXT`).
 */
export function checkRegistration(entries: readonly ToolEntry[], members: readonly CatalogEntry[], remote: RemoteRouter | undefined): void {
  for (const entry of entries) {
    remote?.admit(entry);
    const unbound = unboundNames(entry.presets);
    if (unbound.length === 0 || remote?.runnerFor(entry) !== undefined) continue;
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${entry.owner}: tool '${entry.name}' hides the preset parameter(s) ${quoted(unbound)} (@ToolParam({ preset: true })), and nothing binds them here, so every call would fail. ` +
        `Bind them: toolkit.registration().tool(${classOf(entry.owner)}).presetParameters(${presetsArgument(entry.name, unbound)}).apply() ` +
        `(a function or fromContainer(token) is read at each call). If workers run the tool, ${routeFirst(entry.group)}.`,
      { tool: entry.name },
    );
  }
  for (const member of members) {
    const unbound = unboundNames(member.presets);
    if (unbound.length === 0) continue;
    const what = member.kind === 'prompt' ? 'prompt' : 'resource';
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${member.owner}: ${what} '${member.name}' hides the preset parameter(s) ${quoted(unbound)} (preset: true), and nothing binds them, so every read would fail. ` +
        `Bind them: toolkit.registration().tool(${classOf(member.owner)}).presetParameters(${presetsArgument(presetKey(member.kind, member.name), unbound)}).apply() ` +
        `(a ${what} runs where it is registered).`,
    );
  }
}
