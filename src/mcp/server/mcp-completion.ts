import { ErrorCode, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExecutionContext } from '../../model/execution-context';
import type { ToolView } from '../../toolkit/tool-view';
import { mcpErrorOf } from './mcp-catalog-support';
import { requestContext, type McpCallSettings } from './mcp-tool-call';
import { requestLabel, type RequestSlots } from './request-slots';

/**
 * @internal `completion/complete` for one MCP connection: suggestions for a prompt argument
 * (`ref/prompt`) or a template variable (`ref/resource`, the template's text) from the
 * argument's `complete` callback (or its enum), through the view the connection serves. At most
 * 100 values; a failing callback answers none (and is a `callback_failed` event); a prompt or
 * template the view cannot reach is -32602. A completion holds one of the connection's `slots`.
 */
export function serveCompletion(server: Server, settings: McpCallSettings, viewFor: (sessionId: string | undefined) => ToolView, slots: RequestSlots): void {
  server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
    slots.run('', completionLabel(request.params), () => complete(viewFor(extra.sessionId), request.params, extra.signal, requestContext(settings, extra))),
  );
}

/** @internal How a completion reads in a refusal: `completion/complete of 'review'`. */
export function completionLabel(params: CompletionParams): string {
  return requestLabel('completion/complete', params.ref.type === 'ref/prompt' ? params.ref.name : params.ref.uri);
}

/** @internal What `completion/complete` reads of its params. */
export interface CompletionParams {
  readonly ref: { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> | undefined } | undefined;
}

/** @internal `completion/complete` through `view`: the suggestions, or the MCP error (-32602) for a prompt or template it cannot reach. */
export async function complete(view: ToolView, params: CompletionParams, signal: AbortSignal, context: ToolExecutionContext | undefined): Promise<CompleteResult> {
  const { ref, argument } = params;
  const options = { signal, arguments: params.context?.arguments ?? {}, ...(context ? { context } : {}) };
  try {
    const completion =
      ref.type === 'ref/prompt'
        ? await view.prompts.complete(ref.name, argument.name, argument.value, options)
        : await view.resources.complete(ref.uri, argument.name, argument.value, options);
    return { completion: { ...completion, values: [...completion.values] } };
  } catch (error) {
    throw mcpErrorOf(error, ErrorCode.InvalidParams);
  }
}
