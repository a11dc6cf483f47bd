import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallContext } from '../../model/agent-tool';

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
