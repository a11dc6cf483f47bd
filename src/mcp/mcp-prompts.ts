import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import type { Subscription } from 'rxjs';
import type { ToolView } from '../toolkit/tool-view';
import { mcpErrorOf, pageOf } from './mcp-catalog-support';
import { requestContext, type McpCallSettings } from './mcp-tool-call';

/**
 * @internal The prompts side of one MCP connection: `prompts/list` (paginated) and `prompts/get`
 * through the view the connection serves — arguments converted and validated first (a missing or
 * invalid argument is -32602 naming it), a prompt the view cannot reach "not found" (-32602) —
 * and `notifications/prompts/list_changed` when what the view lists changes.
 */
export class McpPrompts {
  private subscription: Subscription | undefined;

  constructor(
    private readonly server: Server,
    settings: McpCallSettings,
    viewFor: (sessionId: string | undefined) => ToolView,
  ) {
    server.setRequestHandler(ListPromptsRequestSchema, (request, extra) => {
      const { page, nextCursor } = pageOf(viewFor(extra.sessionId).prompts.list(), request.params?.cursor);
      return { prompts: page.map((p) => ({ ...p, arguments: [...p.arguments] })), ...(nextCursor !== undefined ? { nextCursor } : {}) };
    });
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const context = requestContext(settings, extra);
      try {
        const result = await viewFor(extra.sessionId).prompts.get(request.params.name, request.params.arguments ?? {}, { signal: extra.signal, ...(context ? { context } : {}) });
        return result as GetPromptResult;
      } catch (error) {
        throw mcpErrorOf(error);
      }
    });
  }

  /** Follows `view`: a change of its prompts becomes `notifications/prompts/list_changed`. */
  watch(view: ToolView): void {
    this.subscription = view.prompts.listChanged$.subscribe(() => {
      if (this.server.transport) this.server.sendPromptListChanged().catch(() => undefined);
    });
  }

  /** Stops following the view. */
  release(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }
}
