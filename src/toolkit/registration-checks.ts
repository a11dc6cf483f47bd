import { quotedNames, unboundPresetFixes, unboundPresetNames } from '../executor/presets/presets';
import type { ToolEntry } from '../executor/tool-entry';
import type { CatalogBatch } from '../resources/catalog-batch';
import type { RemoteRouter } from './extension';

/**
 * @internal Checks what a registration registers before anything is added: the routes that take a
 * tool admit it (`RemoteRouter.admit`), and every parameter of a resource or prompt hidden with
 * `preset: true` has a `presetParameters` binding (`CatalogBatch.checkPresets`). A tool may be
 * bound on the workers a route sends it to instead (see {@link warnUnboundPresets}). Never quotes
 * a preset value.
 *
 * @throws ToolkitError `INVALID_DEFINITION` naming the member, the parameter and the binding, or
 *   what a route's `admit` throws (`INVALID_CONTEXT`).
 */
export function checkRegistration(entries: readonly ToolEntry[], members: CatalogBatch, remote: RemoteRouter | undefined): void {
  for (const entry of entries) remote?.admit(entry);
  members.checkPresets();
}

/** The warning code of a tool registered with a preset nothing binds and no route takes. */
const PRESET_UNBOUND_WARNING = 'TOOLWRIGHT_PRESET_UNBOUND';

/** The tools warned about (`Class.method` and the tool's name): one warning per tool and process. */
const warned = new Set<string>();

const warningKey = (entry: ToolEntry): string => `${entry.owner}\u0000${entry.name}`;

/**
 * @internal After a registration: for each tool with a `preset: true` parameter nothing bound
 * that no route of the toolkit (`router()`, read when the check runs) takes, one
 * `TOOLWRIGHT_PRESET_UNBOUND` process warning per tool and process, naming `Class.method`, the
 * tool, the parameters and both fixes — never a value. The check runs once the current
 * synchronous code and its pending promise callbacks are done (`setImmediate`), so
 * `registerTool` followed by `queueTools` (the documented order) warns about nothing; a call of a
 * tool still unbound and unrouted fails with `PRESET_UNBOUND` either way.
 */
export function warnUnboundPresets(entries: readonly ToolEntry[], router: () => RemoteRouter | undefined): void {
  const unrouted = (entry: ToolEntry): boolean => router()?.runnerFor(entry) === undefined;
  const pending = entries.filter((entry) => unboundPresetNames(entry.presets).length > 0 && !warned.has(warningKey(entry)) && unrouted(entry));
  if (pending.length === 0) return;
  setImmediate(() => {
    for (const entry of pending) {
      if (warned.has(warningKey(entry)) || !unrouted(entry)) continue;
      warned.add(warningKey(entry));
      const unbound = unboundPresetNames(entry.presets);
      process.emitWarning(
        `${entry.owner}: tool '${entry.name}' hides the preset parameter(s) ${quotedNames(unbound)} (@ToolParam({ preset: true })), which nothing binds in this ` +
          `process, and no route to workers takes the tool yet, so every call of it here fails with PRESET_UNBOUND until one does. ${unboundPresetFixes(entry.owner, entry.name, unbound, true)}`,
        { code: PRESET_UNBOUND_WARNING },
      );
    }
  });
}
