'use strict';
/**
 * Runs TypeScript sources in plain Node (CommonJS) by compiling each `.ts` file with swc when it
 * is required, with the project's `.swcrc` (legacy decorators with metadata), as Jest does. Only `.ts` files outside
 * node_modules are transformed; inversify (ESM-only) loads through Node's own require(esm).
 *
 *   node -r ./scripts/swc-register.js examples/demo/mcp-server.ts
 *
 * It writes nothing to stdout (stdio MCP servers use stdout for the protocol).
 */
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');


const root = path.resolve(__dirname, '..');
const nodeModules = `${path.sep}node_modules${path.sep}`;
const previous = require.extensions['.ts'];

require.extensions['.ts'] = function compileTs(module, filename) {
  if (filename.includes(nodeModules)) {
    if (previous) return previous(module, filename);
    throw new Error(`swc-register: refusing to compile ${filename} (inside node_modules)`);
  }
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = swc.transformSync(source, { filename, cwd: root, swcrc: true });
  module._compile(code, filename);
};

// Error stack traces point into the .ts sources.
if (!process.execArgv.includes('--enable-source-maps') && typeof process.setSourceMapsEnabled === 'function') {
  process.setSourceMapsEnabled(true);
}
