/**
 * NestJS is an optional peer: neither `toolwright` nor loading `toolwright/nestjs` loads it; the
 * first `forRoot` / `forRootAsync` does. (That a project without it gets `PEER_DEPENDENCY_MISSING`
 * is checked on the packed package by scripts/check-package.js.)
 */
describe('toolwright/nestjs loads @nestjs/core only when a module is made', () => {
  afterEach(() => {
    jest.dontMock('@nestjs/core');
    jest.dontMock('@nestjs/common');
    jest.resetModules();
  });

  it('require of the root and of the entry point load nothing of Nest; forRoot does', () => {
    jest.resetModules();
    for (const name of ['@nestjs/core', '@nestjs/common']) {
      jest.doMock(name, () => {
        throw new Error(`${name} was loaded`);
      });
    }
    jest.isolateModules(() => {
      const root = require('../../src') as Record<string, unknown>;
      const entry = require('../../src/nestjs') as { ToolwrightModule: { forRoot(): unknown; forRootAsync(options: object): unknown } };
      expect(typeof root.Toolkit).toBe('function');
      expect(typeof entry.ToolwrightModule.forRoot).toBe('function');
      // the first module loads it (here: the mock, which throws)
      expect(() => entry.ToolwrightModule.forRoot()).toThrow('@nestjs/core was loaded');
      expect(() => entry.ToolwrightModule.forRootAsync({ useFactory: () => ({}) })).toThrow('@nestjs/core was loaded');
    });
  });
});
