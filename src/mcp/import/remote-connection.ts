import { ListToolsResultSchema, ToolListChangedNotificationSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallContext } from '../../common/agent-tool';
import type { McpImportClient, McpImportSdk1Client } from './mcp-import-options';
import { chainListChanged } from './list-changed';
import { callAsTask, taskCallProblem } from './remote-task-call';
import type { McpImportSdk2Client } from './sdk2-client';
import { Sdk2Connection } from './sdk2-connection';

/** @internal One page of a remote `tools/list`. */
export interface RemotePage {
  readonly tools: McpTool[];
  readonly nextCursor?: string | undefined;
}

/** @internal What one request of a listing may take. */
export interface RemoteRequestLimits {
  readonly signal: AbortSignal;
  readonly timeout: number;
}

/**
 * @internal The remote server as the import sees it, whichever SDK client reaches it and whichever
 * protocol revision that client negotiated: list a page, call a tool, follow `list_changed`.
 */
export interface RemoteConnection {
  /** The protocol revision the client negotiated, when it says. */
  readonly protocolVersion: string | undefined;
  /** The server's own name (unbounded: the caller bounds it). */
  serverName(): string;
  /** One page of `tools/list`. */
  listPage(cursor: string | undefined, limits: RemoteRequestLimits): Promise<RemotePage>;
  /** Why a tool the server runs only as an MCP task cannot be called through this client, or `undefined` when it can. */
  taskProblem(): string | undefined;
  /** Calls remote tool `tool` with the importing call's signal, progress and client requests. */
  call(tool: McpTool, args: Record<string, unknown>, ctx: ToolCallContext, timeout: number | undefined): Promise<CallToolResult>;
  /** Calls `onChange` on each `notifications/tools/list_changed` from now on; the returned function stops that. */
  follow(onChange: () => void): () => Promise<void>;
}

/** A `Client` of the MCP SDK 1.x: the 2025-11-25 revision (or older), tasks through its `experimental.tasks`. */
class Sdk1Connection implements RemoteConnection {
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

/** True for a `Client` of the MCP SDK 2 (`@modelcontextprotocol/client`), told by its `getProtocolEra`. */
function isSdk2(client: McpImportClient): client is McpImportSdk2Client {
  return typeof (client as { getProtocolEra?: unknown }).getProtocolEra === 'function';
}

/**
 * @internal The {@link RemoteConnection} of a connected SDK 1.x or SDK 2 `Client`.
 *
 * @example
 * const remote = remoteConnection(client); remote.protocolVersion; // '2026-07-28'
 */
export function remoteConnection(client: McpImportClient): RemoteConnection {
  return isSdk2(client) ? new Sdk2Connection(client) : new Sdk1Connection(client);
}
