import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallContext } from '../../model/agent-tool';
import { boundInput } from '../../utils/quote-input';
import { chainListChanged } from './list-changed';
import type { RemoteConnection, RemotePage, RemoteRequestLimits } from './remote-connection';
import type { McpImportSdk2Client, McpImportSdk2Progress, McpImportSdk2RequestOptions } from './sdk2-client';
import { answerInputRequests, inputRequiredOf, MAX_INPUT_ROUNDS } from './sdk2-input-requests';
import { callThroughTasksExtension, needsTasksExtension } from './sdk2-extension-task';
import { callAsSdk2Task, sdk2TaskProblem } from './sdk2-task-call';

/** The revision whose servers answer with `input_required` and list changes through `subscriptions/listen`. */
const MODERN = 'modern';
/** The per-request `_meta` key of the client's capabilities (2026-07-28). */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** What the importing call's own client can answer, as MCP client capabilities: all a server may ask of it. */
function callCapabilities(ctx: ToolCallContext): Record<string, object> {
  return { ...(ctx.client?.supports('elicitation') ? { elicitation: { form: {} } } : {}), ...(ctx.client?.supports('sampling') ? { sampling: {} } : {}) };
}

/** @internal Relays an SDK progress notification as the importing call's progress. */
export function relayProgress(ctx: ToolCallContext): (p: McpImportSdk2Progress) => void {
  return (p) => ctx.emit({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) });
}

/**
 * @internal A `Client` of the MCP SDK 2 (`@modelcontextprotocol/client`), on the revision it
 * negotiated. On 2025-11-25 it works as an SDK 1.x client does (tasks through the 2025 task
 * methods, sent with toolwright's own result schemas: the SDK 2 has no task API). On 2026-07-28
 * a call's `input_required` answers are handed back by the SDK (`allowInputRequired`) and
 * answered through the importing call's `ClientRequests`; a tool the server runs only as a task
 * (its refusal -32021 names the tasks extension) is called again through the extension
 * (`io.modelcontextprotocol/tasks`), which the SDK has no client side of; `list_changed` arrives
 * on a `subscriptions/listen` stream the import opens.
 */
export class Sdk2Connection implements RemoteConnection {
  readonly protocolVersion: string | undefined;
  private readonly modern: boolean;

  constructor(private readonly client: McpImportSdk2Client) {
    this.protocolVersion = client.getNegotiatedProtocolVersion();
    this.modern = client.getProtocolEra() === MODERN;
  }

  serverName(): string {
    return this.client.getServerVersion()?.name ?? 'server';
  }

  async listPage(cursor: string | undefined, limits: RemoteRequestLimits): Promise<RemotePage> {
    // a plain request: listTools() would walk every page at once, beyond maxPages and timeoutMs, and keep it in its cache
    const page = (await this.client.request({ method: 'tools/list', ...(cursor !== undefined ? { params: { cursor } } : {}) }, limits)) as Partial<RemotePage> | undefined;
    if (!Array.isArray(page?.tools)) throw new Error('the server answered tools/list without a tools array');
    return { tools: page.tools, ...(typeof page.nextCursor === 'string' ? { nextCursor: page.nextCursor } : {}) };
  }

  taskProblem(): string | undefined {
    return this.modern ? undefined : sdk2TaskProblem(this.client);
  }

  async call(tool: McpTool, args: Record<string, unknown>, ctx: ToolCallContext, timeout: number | undefined): Promise<CallToolResult> {
    if (!this.modern && tool.execution?.taskSupport === 'required') return callAsSdk2Task(this.client, tool.name, args, ctx, timeout);
    const options: McpImportSdk2RequestOptions = {
      signal: ctx.signal,
      onprogress: relayProgress(ctx),
      resetTimeoutOnProgress: true,
      // its input schema alone: the Mcp-Param-* headers come from it; an output schema would be compiled on every call
      toolDefinition: { name: tool.name, inputSchema: tool.inputSchema },
      ...(timeout !== undefined ? { timeout } : {}),
      ...(this.modern ? { allowInputRequired: true } : {}),
    };
    // under 2026-07-28 the server asks only what the importing call's own client can answer
    const capabilities = callCapabilities(ctx);
    const meta = this.modern ? { _meta: { [CLIENT_CAPABILITIES]: capabilities } } : {};
    let retry: { inputResponses: Record<string, unknown>; requestState?: string } | undefined;
    for (let round = 0; ; round++) {
      let answer: unknown;
      try {
        answer = await this.client.callTool({ name: tool.name, arguments: args, ...meta, ...retry }, options);
      } catch (error) {
        // a tool the server runs only as a task is refused before it runs: called again through the tasks extension
        if (!this.modern || retry !== undefined || !needsTasksExtension(error, this.client)) throw error;
        return callThroughTasksExtension(this.client, tool.name, args, ctx, capabilities, timeout);
      }
      const asked = this.modern ? inputRequiredOf(answer) : undefined;
      if (asked === undefined) return answer as CallToolResult;
      if (round >= MAX_INPUT_ROUNDS) {
        throw new Error(`MCP server ${boundInput(this.serverName())} asked for input more than ${MAX_INPUT_ROUNDS} times in one call of tool '${boundInput(tool.name)}'; the call was given up`);
      }
      const inputResponses = await answerInputRequests(asked.inputRequests, ctx);
      retry = { inputResponses, ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}) };
    }
  }

  follow(onChange: () => void): () => Promise<void> {
    const stop = chainListChanged(this.client, (handler) => this.client.setNotificationHandler('notifications/tools/list_changed', handler), onChange);
    const capabilities = this.client.getServerCapabilities() as { tools?: { listChanged?: unknown } } | undefined;
    // under 2026-07-28 notifications come only on a subscriptions/listen stream; aborting its signal ends it, opened or not
    const listening = new AbortController();
    const subscription =
      this.modern && capabilities?.tools?.listChanged === true ? this.client.listen({ toolsListChanged: true }, { signal: listening.signal }).catch(() => undefined) : undefined;
    return async () => {
      stop();
      listening.abort();
      await (await subscription)?.close().catch(() => undefined);
    };
  }
}
