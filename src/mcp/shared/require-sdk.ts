import { assertPeers } from '../../utils/peer-dependency';

/**
 * `toolwright/mcp` needs the optional peer dependency `@modelcontextprotocol/sdk`: say so, with
 * the fix, instead of a bare "Cannot find module" from deep inside the entry point.
 */
assertPeers({
  feature: 'toolwright/mcp',
  modules: ['@modelcontextprotocol/sdk/server/index.js'],
  install: 'npm install @modelcontextprotocol/sdk@1',
  optional: true,
});

export {};
