import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import type { Subscription } from 'rxjs';
import type { ToolExecutionContext } from '../../common/execution-context';
import type { ToolView } from '../../toolkit/tool-view';
import { mcpErrorOf, pageOf } from './mcp-catalog-support';
import { requestContext, type McpCallSettings } from './mcp-tool-call';

/**
 * @internal The prompts side of one MCP connection: `prompts/list` (paginated) and `prompts/get`
 * through the view the connection serves — arguments converted and validated first (a missing or
 * invalid argument is -32602 naming it), a prompt the view cannot reach "not found" (-32602).
 */
export function servePrompts(server: Server, settings: McpCallSettings, viewFor: (sessionId: string | undefined) => ToolView): void {
  server.setRequestHandler(ListPromptsRequestSchema, (request, extra) =>
    pageOf('prompts', viewFor(extra.sessionId).prompts.list().map((p) => ({ ...p, arguments: [...p.arguments] })), request.params?.cursor),
  );
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    getPrompt(viewFor(extra.sessionId), request.params.name, request.params.arguments ?? {}, extra.signal, requestContext(settings, extra)),
  );
}

/** @internal `prompts/get` through `view`: the rendered prompt, or the MCP error for it. */
export async function getPrompt(
  view: ToolView,
  name: string,
  args: Readonly<Record<string, string>>,
  signal: AbortSignal,
  context: ToolExecutionContext | undefined,
): Promise<GetPromptResult> {
  try {
    return (await view.prompts.get(name, args, { signal, ...(context ? { context } : {}) })) as GetPromptResult;
  } catch (error) {
    throw mcpErrorOf(error);
  }
}

/** @internal `notifications/prompts/list_changed` each time what `view` lists of prompts changes. */
export function followPrompts(server: Server, view: ToolView): Subscription {
  return view.prompts.listChanged$.subscribe(() => {
    if (server.transport) server.sendPromptListChanged().catch(() => undefined);
  });
}
