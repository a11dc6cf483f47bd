'use strict';
/**
 * Runs TypeScript sources in plain Node (CommonJS) by compiling each `.ts` file with swc when it
 * is required: legacy decorators with metadata, as in jest.config.ts. Only `.ts` files outside
 * node_modules are transformed; inversify (ESM-only) loads through Node's own require(esm).
 *
 *   node -r ./scripts/swc-register.js samples/mcp-server.ts
 *
 * It writes nothing to stdout (stdio MCP servers use stdout for the protocol).
 */
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
  swcrc: false,
  configFile: false,
};

const nodeModules = `${path.sep}node_modules${path.sep}`;
const previous = require.extensions['.ts'];

require.extensions['.ts'] = function compileTs(module, filename) {
  if (filename.includes(nodeModules)) {
    if (previous) return previous(module, filename);
    throw new Error(`swc-register: refusing to compile ${filename} (inside node_modules)`);
  }
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = swc.transformSync(source, { ...options, filename });
  module._compile(code, filename);
};

// Error stack traces point into the .ts sources.
if (!process.execArgv.includes('--enable-source-maps') && typeof process.setSourceMapsEnabled === 'function') {
  process.setSourceMapsEnabled(true);
}
