import { assertPeers, type PeerRequirement } from '../utils/peer-dependency';

/**
 * @internal The optional peers of `toolwright/build` and `toolwright-schema`: the TypeScript
 * compiler and typescript-json-schema, which nothing else in toolwright loads.
 */
export const BUILD_PEERS: PeerRequirement = {
  feature: 'toolwright/build',
  modules: ['typescript', 'typescript-json-schema'],
  install: 'npm i -D typescript typescript-json-schema',
  optional: true,
};

/**
 * Loads the generator, which loads the TypeScript compiler, once the build peers are known to
 * resolve; the CLI calls it only when it has a manifest to generate (`--help` and usage errors
 * need no compiler).
 *
 * @throws ToolkitError `PEER_DEPENDENCY_MISSING` naming the install command.
 * @internal
 */
export function loadGenerator(): typeof import('./generate-manifest') {
  assertPeers(BUILD_PEERS);
  return require('./generate-manifest') as typeof import('./generate-manifest');
}
