import * as path from 'node:path';
import type * as TypeScript from 'typescript';
import { ToolkitError } from '../errors';

/**
 * The TypeScript compiler API the generator works with: the copy that typescript-json-schema
 * itself loads, resolved from typescript-json-schema's folder. The project's own `typescript` may
 * be a release without a compiler API (TypeScript 7 exports none), in which case npm installs
 * typescript-json-schema's `~5.9` copy beside it; and one Program must be built and read by the
 * same copy that typescript-json-schema checks it with.
 *
 * @throws ToolkitError `PEER_DEPENDENCY_MISSING` when that copy has no compiler API.
 */
function loadCompiler(): typeof TypeScript {
  const generator = path.dirname(require.resolve('typescript-json-schema'));
  const file = require.resolve('typescript', { paths: [generator] });
  const compiler = require(file) as Partial<typeof TypeScript>;
  if (typeof compiler.createProgram !== 'function') {
    const version = typeof compiler.version === 'string' ? compiler.version : 'of unknown version';
    throw new ToolkitError(
      'PEER_DEPENDENCY_MISSING',
      `toolwright/build needs the TypeScript compiler API of the typescript that typescript-json-schema depends on (~5.9); ${file} (typescript ${version}) has none: reinstall typescript-json-schema so that npm gives it its own typescript.`,
    );
  }
  return compiler as typeof TypeScript;
}

/** @internal The TypeScript compiler API shared with typescript-json-schema (see {@link loadCompiler}). */
export const ts: typeof TypeScript = loadCompiler();
