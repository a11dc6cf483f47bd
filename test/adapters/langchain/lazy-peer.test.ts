/**
 * `@langchain/core` is an optional peer: neither `toolwright` nor loading `toolwright/langchain`
 * loads it; the first `toLangChainTools` does. (That a project without it gets
 * `PEER_DEPENDENCY_MISSING` is checked on the packed package by scripts/check-package.js.)
 */
describe('toolwright/langchain loads @langchain/core only on first use', () => {
  afterEach(() => {
    jest.dontMock('@langchain/core/tools');
    jest.resetModules();
  });

  it('require of the root and of the entry point load nothing of LangChain', () => {
    jest.resetModules();
    jest.doMock('@langchain/core/tools', () => {
      throw new Error('@langchain/core/tools was loaded');
    });
    jest.isolateModules(() => {
      const root = require('../../../src') as Record<string, unknown>;
      const entry = require('../../../src/adapters/langchain') as Record<string, unknown>;
      expect(typeof root.Toolkit).toBe('function');
      expect(typeof entry.toLangChainTools).toBe('function');
      expect(entry.TOOLWRIGHT_CONTEXT_KEY).toBe('toolwrightContext');
      // the first use loads it (here: the mock, which throws)
      const { Toolkit } = root as { Toolkit: new () => object };
      expect(() => (entry.toLangChainTools as (view: object) => unknown)(new Toolkit())).toThrow('@langchain/core/tools was loaded');
    });
  });
});
