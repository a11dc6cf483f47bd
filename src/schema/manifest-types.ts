import { boundInput } from '../utils/quote-input';
import type { ManifestParam, ToolManifest } from '../model/manifest';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';

/** The class a manifest names for a parameter, found (or not) through the manifest's `types`. */
export interface ManifestType {
  /** The class name the generator saw (`UserContext`, `OrderDto`, `Date`). */
  readonly name: string;
  /** The class, when the manifest module carries it (always for `Date`). */
  readonly type: abstract new (...args: never[]) => unknown;
  /** For model parameters: an array of that class. */
  readonly array: boolean;
}

/** Why reflection cannot name the class itself, from what it reported (`design:paramtypes`). */
function reflectionGap(designType: unknown): string {
  if (designType === undefined) return 'there is no decorator metadata to find the class by (esbuild, tsx and vitest on Vite 7 or older emit none)';
  if (designType === Array) return 'reflection sees only Array (decorator metadata never names the item class)';
  const name = typeof designType === 'function' ? designType.name : String(designType);
  return `reflection sees only ${name} (what the compiler emits for \`T | null\` under strictNullChecks, \`import type\`, interfaces and unions)`;
}

/**
 * The class the manifest names for `param` (a context class, a DTO class, `Date`), looked up in
 * the manifest module's `types`. `undefined` when the manifest names no class. `designType` is
 * what reflection reported, for the message.
 *
 * @throws ToolkitError `UNRESOLVABLE_PARAMETER` when it names a class it cannot deliver: a JSON
 *   manifest (which cannot carry classes), a class no module exports, or a `types` entry that
 *   throws or returns no class. `fix` completes the message with the decorator that says it.
 * @internal
 */
export function manifestType(
  owner: string,
  label: string,
  param: ManifestParam | undefined,
  types: ToolManifest['types'],
  fix: string,
  designType: unknown,
): ManifestType | undefined {
  if (param?.typeName === undefined) return undefined;
  const array = param.kind === 'model' && param.array === true;
  if (param.kind === 'model' && param.typeName === 'Date') return { name: 'Date', type: Date, array };
  const what = `${array ? 'an array of ' : ''}${param.kind === 'model' ? 'DTO class' : 'context class'} ${param.typeName}`;
  const fail = (why: string, remedy: string, cause?: unknown): never => {
    throw new ToolkitError(
      'UNRESOLVABLE_PARAMETER',
      `${owner} ${label}: the manifest says it is ${what}, and ${reflectionGap(designType)}, but ${why}. Fix: ${remedy}, or say the class: ${fix}.`,
      cause === undefined ? {} : { cause },
    );
  };
  const regenerate = 'regenerate the manifest module (toolwright-schema … -o tools.manifest.ts)';
  if (param.typeRef === undefined) return fail(`no module exports ${param.typeName}`, `export the class and ${regenerate}`);
  if (types === undefined) {
    return fail(
      'a JSON manifest cannot carry classes',
      "write the manifest as a module (toolwright-schema … -o tools.manifest.ts) and pass its export: new Toolkit({ manifest })",
    );
  }
  const thunk = Object.hasOwn(types, param.typeRef) ? types[param.typeRef] : undefined;
  if (typeof thunk !== 'function') return fail(`the manifest module has no class for ${param.typeRef}`, regenerate);
  let type: unknown;
  try {
    type = thunk();
  } catch (error) {
    return fail(`the manifest module's entry for ${param.typeRef} threw (${boundInput(describeThrown(error), 300)})`, `${regenerate}, and check that its module loads`, error);
  }
  if (typeof type !== 'function') return fail(`the manifest module's entry for ${param.typeRef} gave ${typeof type}, not a class`, regenerate);
  return { name: param.typeName, type: type as ManifestType['type'], array };
}
