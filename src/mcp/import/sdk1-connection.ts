import { ListToolsResultSchema, ToolListChangedNotificationSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallContext } from '../../model/agent-tool';
import { chainListChanged } from './list-changed';
import type { McpImportSdk1Client } from './mcp-import-options';
import type { RemoteConnection, RemotePage, RemoteRequestLimits } from './remote-connection';
import { callAsTask, taskCallProblem } from './remote-task-call';

/** @internal A `Client` of the MCP SDK 1.x: the 2025-11-25 revision (or older), tasks through its `experimental.tasks`. */
export class Sdk1Connection implements RemoteConnection {
  readonly protocolVersion: string | undefined;

  constructor(private readonly client: McpImportSdk1Client) {
    const transport = (client as { transport?: { protocolVersion?: unknown } }).transport;
    this.protocolVersion = typeof transport?.protocolVersion === 'string' ? transport.protocolVersion : undefined;
  }

  serverName(): string {
    return this.client.getServerVersion()?.name ?? 'server';
  }

  async listPage(cursor: string | undefined, limits: RemoteRequestLimits): Promise<RemotePage> {
    // a plain request: the SDK's listTools() would compile every output schema of the page up front
    return this.client.request({ method: 'tools/list', ...(cursor !== undefined ? { params: { cursor } } : {}) }, ListToolsResultSchema, limits);
  }

  taskProblem(): string | undefined {
    return taskCallProblem(this.client);
  }

  async call(tool: McpTool, args: Record<string, unknown>, ctx: ToolCallContext, timeout: number | undefined): Promise<CallToolResult> {
    if (tool.execution?.taskSupport === 'required') return callAsTask(this.client, tool.name, args, ctx, timeout);
    return (await this.client.callTool({ name: tool.name, arguments: args }, undefined, {
      signal: ctx.signal,
      onprogress: (p) => ctx.emit({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
      resetTimeoutOnProgress: true,
      ...(timeout !== undefined ? { timeout } : {}),
    })) as CallToolResult;
  }

  follow(onChange: () => void): () => Promise<void> {
    const stop = chainListChanged(this.client, (handler) => this.client.setNotificationHandler(ToolListChangedNotificationSchema, handler), onChange);
    return async () => stop();
  }
}
