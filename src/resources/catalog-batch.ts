import { ToolkitError } from '../errors';
import { presetBinding, quotedNames, unboundPresetNames, type PresetMap } from '../executor/presets/presets';
import type { PromptDescriptor, ResourceDescriptor } from '../schema/catalog-descriptors';
import { catalogEntry, presetKey, type CatalogEntry } from './catalog-entry';

/**
 * @internal The resources and prompts one registration brings, built from its services'
 * descriptors and checked before anything joins the catalog: the registration adds the batch
 * (`Catalog.check`, then `Catalog.add`) once all of it passed, or drops it whole.
 *
 * @example
 * const batch = new CatalogBatch();
 * batch.addService(buildCatalogDescriptors(Docs), docs, 'docs', presets);
 * batch.checkPresets();
 * catalog.check(batch);
 * catalog.add(batch);
 */
export class CatalogBatch {
  private readonly members: CatalogEntry[] = [];

  /** The entries of the batch, in registration order (for the catalog). */
  get entries(): readonly CatalogEntry[] {
    return this.members;
  }

  /**
   * Adds the resources and prompts of a service `instance`, with the registration's `group` (over
   * a member's own) and its presets (under `'resource:<name>'` / `'prompt:<name>'`).
   *
   * @throws ToolkitError `INVALID_DEFINITION`: presets naming no parameter, a `complete` on a
   *   preset, parameters that are no template variable, `AsyncCompletion` injected.
   */
  addService(descriptors: { readonly resources: readonly ResourceDescriptor[]; readonly prompts: readonly PromptDescriptor[] }, instance: object, group: string | undefined, presets: PresetMap | undefined): void {
    for (const descriptor of [...descriptors.resources, ...descriptors.prompts]) this.members.push(catalogEntry(descriptor, instance, group, presets));
  }

  /** The keys of the members in a registration's preset map (`'resource:<name>'`, `'prompt:<name>'`), in order. */
  presetKeys(): string[] {
    return this.members.map((member) => presetKey(member.kind, member.name));
  }

  /** The groups the members belong to, in order (a member without one left out). */
  groups(): string[] {
    return this.members.flatMap((member) => (member.group !== undefined ? [member.group] : []));
  }

  /**
   * Throws unless every parameter of a member hidden with `preset: true` has a `presetParameters`
   * binding (a plain value, or a function / `fromContainer` read at each read): a resource or
   * prompt runs where it is registered, so one left unbound would fail every read. Never quotes a
   * preset value.
   *
   * @throws ToolkitError `INVALID_DEFINITION` naming the member, the parameters and the binding.
   */
  checkPresets(): void {
    for (const member of this.members) {
      const unbound = unboundPresetNames(member.presets);
      if (unbound.length === 0) continue;
      const what = member.kind === 'prompt' ? 'prompt' : 'resource';
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `${member.owner}: ${what} '${member.name}' hides the preset parameter(s) ${quotedNames(unbound)} (preset: true), and nothing binds them, so every read would fail. ` +
          `Bind them: ${presetBinding(member.owner, presetKey(member.kind, member.name), unbound)} (a ${what} runs where it is registered).`,
      );
    }
  }
}
