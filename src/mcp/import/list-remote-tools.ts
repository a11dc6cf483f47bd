import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { quoteInput } from '../../utils/quote-input';
import { ToolkitError } from '../../errors';
import { Slices } from './import-slices';
import { importLimit, type MCP_IMPORT_LIMITS, type McpImportOptions } from './mcp-import-options';
import type { RemoteConnection, RemotePage } from './remote-connection';

function limitExceeded(options: McpImportOptions, serverName: string, what: string, option: keyof typeof MCP_IMPORT_LIMITS, cause?: unknown): ToolkitError {
  return new ToolkitError(
    'IMPORT_LIMIT_EXCEEDED',
    `MCP server ${quoteInput(serverName)} ${what} (importMcpTools option ${option}: ${importLimit(options, option)}); nothing was imported or changed. ` +
      `Raise ${option} if the server is trusted to need it.`,
    cause !== undefined ? { cause } : {},
  );
}

/**
 * @internal Every remote tool the import wants (after `filter`), page after page, within
 * `maxPages`, `maxTools` (counted before `filter`) and `timeoutMs`.
 *
 * @throws ToolkitError `IMPORT_LIMIT_EXCEEDED` past one of those bounds (naming it); whatever
 *   the `tools/list` request throws otherwise.
 *
 * @example
 * const tools = await listRemoteTools(remoteConnection(client), { maxTools: 50 }, 'github');
 */
export async function listRemoteTools(remote: RemoteConnection, options: McpImportOptions, serverName: string): Promise<McpTool[]> {
  const maxPages = importLimit(options, 'maxPages');
  const maxTools = importLimit(options, 'maxTools');
  const timeoutMs = importLimit(options, 'timeoutMs');
  const exceeded = (what: string, option: keyof typeof MCP_IMPORT_LIMITS, cause?: unknown) => limitExceeded(options, serverName, what, option, cause);
  const deadline = Date.now() + timeoutMs;
  // one controller per page: the SDK leaves its abort listener on the signal of every request
  let page: AbortController | undefined;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    page?.abort();
  }, timeoutMs);
  const tools: McpTool[] = [];
  const slices = new Slices();
  let cursor: string | undefined;
  let pages = 0;
  try {
    do {
      if (++pages > maxPages) throw exceeded(`listed more than ${maxPages} pages of tools`, 'maxPages');
      const left = deadline - Date.now();
      if (left <= 0) throw exceeded(`took longer than ${timeoutMs} ms to list its tools`, 'timeoutMs');
      page = new AbortController();
      let listed: RemotePage;
      try {
        listed = await remote.listPage(cursor, { signal: page.signal, timeout: left });
      } catch (error) {
        if (timedOut || Date.now() >= deadline) throw exceeded(`took longer than ${timeoutMs} ms to list its tools`, 'timeoutMs', error);
        throw error;
      }
      if (tools.length + listed.tools.length > maxTools) throw exceeded(`listed more than ${maxTools} tools`, 'maxTools');
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      // a transport that answers on microtasks alone would parse every page in one block
      if (cursor !== undefined) await slices.pause();
    } while (cursor !== undefined);
  } finally {
    clearTimeout(timer);
  }
  const { filter } = options;
  if (!filter) return tools;
  if (typeof filter === 'function') return tools.filter((t) => filter(t));
  const names = new Set(filter);
  return tools.filter((t) => names.has(t.name));
}
