import { ToolkitError } from '../errors';

/**
 * @internal A peer dependency that one part of toolwright needs: what needs it, which modules
 * must resolve and the command that installs them.
 */
export interface PeerRequirement {
  /** What needs the peers, as the user knows it: `toolwright/build`, `a DTO parameter`. */
  readonly feature: string;
  /** The modules that must resolve, as `require` names them (a subpath is fine). */
  readonly modules: readonly string[];
  /** The command that installs them, quoted in the message. */
  readonly install: string;
  /** True when npm does not install the peers by itself (`peerDependenciesMeta.optional`). */
  readonly optional: boolean;
}

/** The package a module specifier belongs to: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/** Why `specifier` does not resolve from toolwright's own folder, or `undefined` when it does. */
function resolveError(specifier: string): unknown {
  try {
    require.resolve(specifier);
    return undefined;
  } catch (error) {
    return error;
  }
}

/**
 * Throws `PEER_DEPENDENCY_MISSING`, naming the missing packages and the install command, unless
 * every module of `peer` resolves: a clear error instead of a bare "Cannot find module" from deep
 * inside an entry point.
 *
 * @throws ToolkitError `PEER_DEPENDENCY_MISSING`
 * @internal
 */
export function assertPeers(peer: PeerRequirement): void {
  const failures = peer.modules.map((specifier) => ({ specifier, error: resolveError(specifier) })).filter((f) => f.error !== undefined);
  if (failures.length === 0) return;
  const missing = [...new Set(failures.map((f) => packageOf(f.specifier)))];
  const kind = `${peer.optional ? 'optional ' : ''}peer dependenc${missing.length === 1 ? 'y' : 'ies'}`;
  const what = missing.length === 1 ? `${peer.optional ? 'an' : 'a'} ${kind} that is` : `${kind} that are`;
  throw new ToolkitError('PEER_DEPENDENCY_MISSING', `${peer.feature} needs ${missing.join(' and ')}, ${what} not installed: run '${peer.install}'.`, {
    cause: failures[0]?.error,
  });
}

/**
 * A getter that runs `load` on its first call and returns the same module ever after: for peers
 * that only some tools need, so `require('toolwright')` does not pay for them. `load` is a literal
 * `require('…')` (bundlers see it); when it fails because a peer is not installed, the getter
 * throws `PEER_DEPENDENCY_MISSING` (see {@link assertPeers}) instead.
 *
 * @example const classValidator = lazyPeer(() => require('class-validator') as typeof import('class-validator'), peer);
 * @throws ToolkitError `PEER_DEPENDENCY_MISSING`, or what `load` throws when the peers resolve.
 * @internal
 */
export function lazyPeer<T>(load: () => T, peer: PeerRequirement): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      try {
        loaded = load();
      } catch (error) {
        assertPeers(peer);
        throw error;
      }
    }
    return loaded;
  };
}
