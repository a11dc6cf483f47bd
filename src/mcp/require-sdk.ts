import { ToolkitError } from '../errors';

/**
 * `toolwright/mcp` needs the optional peer dependency `@modelcontextprotocol/sdk`: say so, with
 * the fix, instead of a bare "Cannot find module" from deep inside the entry point.
 */
try {
  require.resolve('@modelcontextprotocol/sdk/server/index.js');
} catch (cause) {
  throw new ToolkitError(
    'PEER_DEPENDENCY_MISSING',
    "toolwright/mcp needs the MCP SDK, an optional peer dependency that is not installed: run 'npm install @modelcontextprotocol/sdk' (1.x).",
    { cause },
  );
}

export {};
