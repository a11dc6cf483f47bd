/**
 * `toolwright/build`: the build-time schema generator (`toolwright-schema`). The only part of
 * toolwright that loads the TypeScript compiler; never import it from run-time code. Needs the
 * optional peer dependencies `typescript` (5.9 or 7; the generator runs the 5.9 compiler that
 * typescript-json-schema depends on) and `typescript-json-schema`
 * (`npm i -D typescript typescript-json-schema`).
 */
import './require-peers';

/**
 * Generates the tool manifest from TypeScript sources (one Program for all files).
 * @see GenerateManifestOptions
 */
export { generateManifest } from './generate-manifest';
/** Options and progress events of {@link generateManifest}. */
export type { GenerateManifestOptions, GenerateProgress } from './generate-manifest';
/** The manifest as stable JSON text (sorted keys, 2-space indent, trailing newline). */
export { serializeManifest } from './serialize-manifest';
/** The manifest format (defined in the model of `toolwright`; re-exported here for convenience). */
export type { ToolManifest, ManifestClass, ManifestMethod, ManifestParam, InjectedKind } from '../model/manifest';
/** The manifest as a TypeScript module that also carries the classes its parameters name (for esbuild, tsx, vitest). */
export { serializeManifestModule } from './manifest-module';
/** Options of {@link serializeManifestModule}. */
export type { ManifestModuleOptions } from './manifest-module';
