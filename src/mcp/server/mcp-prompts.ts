import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import type { Subscription } from 'rxjs';
import type { ToolExecutionContext } from '../../model/execution-context';
import type { ToolView } from '../../toolkit/tool-view';
import type { ClientRequestHandler } from '../../model/client-requests';
import { mcpErrorOf, pageOf } from './mcp-catalog-support';
import { McpClientRequests, type McpClientLink } from './mcp-client-requests';
import { requestContext, type McpCallSettings } from './mcp-tool-call';
import { requestLabel, type RequestSlots } from './request-slots';

/**
 * @internal The prompts side of one MCP connection: `prompts/list` (paginated) and `prompts/get`
 * through the view the connection serves — arguments converted and validated first (a missing or
 * invalid argument is -32602 naming it), a prompt the view cannot reach "not found" (-32602). A
 * `prompts/get` holds one of the connection's `slots`; what the prompt asks the client (its
 * injected `ClientRequests`) goes out as requests related to it.
 */
export function servePrompts(server: Server, settings: McpCallSettings, viewFor: (sessionId: string | undefined) => ToolView, slots: RequestSlots, link: McpClientLink): void {
  server.setRequestHandler(ListPromptsRequestSchema, (request, extra) =>
    pageOf('prompts', viewFor(extra.sessionId).prompts.list().map((p) => ({ ...p, arguments: [...p.arguments] })), request.params?.cursor),
  );
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const client = new McpClientRequests(link, extra);
    return slots.run('', requestLabel('prompts/get', name), () => getPrompt(viewFor(extra.sessionId), name, args, extra.signal, requestContext(settings, extra), client));
  });
}

/** @internal `prompts/get` through `view` (`client` answers what the prompt asks): the rendered prompt, or the MCP error for it. */
export async function getPrompt(
  view: ToolView,
  name: string,
  args: Readonly<Record<string, string>>,
  signal: AbortSignal,
  context: ToolExecutionContext | undefined,
  client?: ClientRequestHandler,
): Promise<GetPromptResult> {
  try {
    return (await view.prompts.get(name, args, { signal, ...(context ? { context } : {}), ...(client ? { client } : {}) })) as GetPromptResult;
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
