'use strict';
// Lets `node -r ./scripts/swc-register.js file.ts` run the TypeScript sources directly (samples,
// child-process test fixtures): swc strips the types and emits legacy decorators with metadata,
// as jest.config.ts does. Only .ts files are transformed; ESM-only dependencies (inversify) load
// through Node's own require(esm).
const { transformSync } = require('@swc/core');
const Module = require('node:module');
const fs = require('node:fs');

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

Module._extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, { ...options, filename });
  module._compile(code, filename);
};
