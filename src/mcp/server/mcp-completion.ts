import { ErrorCode, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolView } from '../../toolkit/tool-view';
import { mcpErrorOf } from './mcp-catalog-support';
import { requestContext, type McpCallSettings } from './mcp-tool-call';

/**
 * @internal `completion/complete` for one MCP connection: suggestions for a prompt argument
 * (`ref/prompt`) or a template variable (`ref/resource`, the template's text) from the
 * argument's `complete` callback (or its enum), through the view the connection serves. At most
 * 100 values; a failing callback answers none (and is a `callback_failed` event); a prompt or
 * template the view cannot reach is -32602.
 */
export function serveCompletion(server: Server, settings: McpCallSettings, viewFor: (sessionId: string | undefined) => ToolView): void {
  server.setRequestHandler(CompleteRequestSchema, async (request, extra): Promise<CompleteResult> => {
    const { ref, argument } = request.params;
    const context = requestContext(settings, extra);
    const options = { signal: extra.signal, arguments: request.params.context?.arguments ?? {}, ...(context ? { context } : {}) };
    const view = viewFor(extra.sessionId);
    try {
      const completion =
        ref.type === 'ref/prompt'
          ? await view.prompts.complete(ref.name, argument.name, argument.value, options)
          : await view.resources.complete(ref.uri, argument.name, argument.value, options);
      return { completion: { ...completion, values: [...completion.values] } };
    } catch (error) {
      throw mcpErrorOf(error, ErrorCode.InvalidParams);
    }
  });
}
