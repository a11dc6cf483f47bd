import { assertPeers, lazyPeer, type PeerRequirement } from '../../src/utils/peer-dependency';
import { thrown } from '../support/errors';

const BUILD: PeerRequirement = {
  feature: 'toolwright/build',
  modules: ['typescript', 'toolwright-no-such-module-a'],
  install: 'npm i -D typescript toolwright-no-such-module-a',
  optional: true,
};

describe('peer dependencies', () => {
  it('passes when every module resolves (a subpath too)', () => {
    expect(() => assertPeers({ ...BUILD, modules: ['typescript', '@modelcontextprotocol/sdk/server/index.js'] })).not.toThrow();
  });

  it('names only the missing package and the install command', () => {
    const error = thrown(() => assertPeers(BUILD), 'PEER_DEPENDENCY_MISSING');
    expect(error.message).toBe(
      "toolwright/build needs toolwright-no-such-module-a, an optional peer dependency that is not installed: run 'npm i -D typescript toolwright-no-such-module-a'.",
    );
    expect((error.cause as NodeJS.ErrnoException).code).toBe('MODULE_NOT_FOUND');
  });

  it('names each missing package once, by package name, and says whether npm installs it', () => {
    const error = thrown(
      () =>
        assertPeers({
          feature: 'a DTO parameter',
          modules: ['@toolwright-no-such/scope/sub.js', '@toolwright-no-such/scope', 'toolwright-no-such-module-b/lib'],
          install: 'npm install x',
          optional: false,
        }),
      'PEER_DEPENDENCY_MISSING',
    );
    expect(error.message).toBe(
      "a DTO parameter needs @toolwright-no-such/scope and toolwright-no-such-module-b, peer dependencies that are not installed: run 'npm install x'.",
    );
  });

  it('lazyPeer loads on the first call only; a missing peer fails with the install command, any other failure as it is', () => {
    let loads = 0;
    const path = lazyPeer(() => {
      loads++;
      return require('node:path') as typeof import('node:path');
    }, BUILD);
    expect(loads).toBe(0);
    expect(path().join('a', 'b')).toBe(`a${path().sep}b`);
    expect(loads).toBe(1);
    const missing = lazyPeer(() => require('toolwright-no-such-module-a') as unknown, BUILD);
    expect(thrown(missing, 'PEER_DEPENDENCY_MISSING').message).toContain("run 'npm i -D typescript toolwright-no-such-module-a'");
    const broken = new Error('broken inside the module');
    const failing = lazyPeer(() => {
      throw broken;
    }, { ...BUILD, modules: ['typescript'] });
    expect(failing).toThrow(broken);
  });
});
