/**
 * `toolwright/build`: the build-time schema generator (`toolwright-schema`). The only part of
 * toolwright that loads the TypeScript compiler; never import it from run-time code.
 */

/**
 * Generates the tool manifest from TypeScript sources (one Program for all files).
 * @see GenerateManifestOptions
 */
export { generateManifest } from './generate-manifest';
/** Options and progress events of {@link generateManifest}. */
export type { GenerateManifestOptions, GenerateProgress } from './generate-manifest';
/** The manifest as stable JSON text (sorted keys, 2-space indent, trailing newline). */
export { serializeManifest, canonicalManifest } from './serialize-manifest';
/** Expands paths, directories and `*`/`**` globs into TypeScript source files. */
export { expandGlobs, NoMatchError } from './expand-globs';
/** The `toolwright-schema` command line as a function returning its exit code. */
export { main, USAGE } from './cli';
/** Injectable output and environment of {@link main}. */
export type { CliIo } from './cli';
/** The manifest format (owned by the core; re-exported for convenience). */
export type { ToolManifest, ManifestClass, ManifestMethod, ManifestParam, InjectedKind } from '../common/manifest';
