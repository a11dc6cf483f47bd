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
// named, so that files outside the repository (a test's temporary project) compile the same way
const swcrc = path.join(root, '.swcrc');
const nodeModules = `${path.sep}node_modules${path.sep}`;
const previous = require.extensions['.ts'];

require.extensions['.ts'] = function compileTs(module, filename) {
  if (filename.includes(nodeModules)) {
    if (previous) return previous(module, filename);
    throw new Error(`swc-register: refusing to compile ${filename} (inside node_modules)`);
  }
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = swc.transformSync(source, { filename, cwd: root, swcrc: true, configFile: swcrc });
  module._compile(code, filename);
};

// The example projects' sources import the package by its name and their own modules as `./x.js`
// (ES module style); in this repository (examples/demo imports examples/weather-agent) the name
// means the sources and `./x.js` the `./x.ts` beside the importing file.
const Module = require('node:module');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveSources(request, parent, ...rest) {
  if (request === 'toolwright') return path.join(root, 'src', 'index.ts');
  const from = parent?.filename;
  if (from?.endsWith('.ts') && /^\.\.?\//.test(request) && request.endsWith('.js')) {
    const source = path.resolve(path.dirname(from), `${request.slice(0, -3)}.ts`);
    if (!fs.existsSync(path.resolve(path.dirname(from), request)) && fs.existsSync(source)) return source;
  }
  return resolveFilename.call(this, request, parent, ...rest);
};

// Error stack traces point into the .ts sources.
if (!process.execArgv.includes('--enable-source-maps') && typeof process.setSourceMapsEnabled === 'function') {
  process.setSourceMapsEnabled(true);
}
