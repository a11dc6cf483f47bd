/**
 * The sample services as an MCP server on stdio: `npm run --silent mcp`.
 *
 * Add it to any MCP client's config (Claude Desktop, Cursor, VS Code, the MCP inspector…):
 *
 *   { "mcpServers": { "toolwright-sample": {
 *       "command": "npm", "args": ["run", "--silent", "mcp"], "cwd": "/path/to/toolwright" } } }
 *
 * Options (after `--`): `--enable admin` switches groups on at start; `--http [port]` serves
 * Streamable HTTP on 127.0.0.1 instead of stdio (each HTTP client gets its own session).
 * stdout belongs to the protocol: everything human-readable goes to stderr.
 */
import { createSampleToolkit } from './create-toolkit';
import { serveMcpHttp, serveMcpStdio } from '../../src/mcp';

const log = (line: string) => process.stderr.write(`[toolwright-mcp] ${line}\n`);

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  if (index < 0) return undefined;
  const value = process.argv[index + 1];
  return value !== undefined && !value.startsWith('--') ? value : '';
}

async function main(): Promise<void> {
  const toolkit = createSampleToolkit();
  toolkit.enableEquipToolGroups();
  const enable = option('--enable');
  if (enable) toolkit.updateToolGroups(enable.split(','), true);

  const serverOptions = {
    name: 'toolwright-sample',
    version: '0.1.0',
    instructions: 'Sample toolwright services: weather, email, notes and account tools. Use equip_tool_groups to switch groups (admin is off).',
    // each MCP session toggles its own groups
    sessions: true,
  };

  const http = option('--http');
  if (http !== undefined) {
    const server = await serveMcpHttp(toolkit, { ...serverOptions, port: http ? Number(http) : 3333 });
    log(`Streamable HTTP on ${server.url.href}`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }

  const mcp = await serveMcpStdio(toolkit, serverOptions);
  log(`serving ${toolkit.getActiveTools().length} tools on stdio`);
  const stop = () => void mcp.close().finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  log(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
