import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool, ToolBehaviour, ToolCallContext } from '../common/agent-tool';
import type { ObjectJsonSchema } from '../common/json-schema';
import type { ToolAnnotations } from '../common/tool-types';
import type { ContentLimits } from './import-content';
import type { McpImportClient } from './mcp-import-options';
import { MCP_TOOL_OPTIONS, type McpToolOptions } from './mcp-tool-options';
import { fromCallToolResult } from './remote-result';

function annotationsOf(tool: McpTool): ToolAnnotations | undefined {
  const a = tool.annotations;
  if (!a) return undefined;
  const out: ToolAnnotations = {};
  if (a.readOnlyHint !== undefined) out.readOnly = a.readOnlyHint;
  if (a.destructiveHint !== undefined) out.destructive = a.destructiveHint;
  if (a.idempotentHint !== undefined) out.idempotent = a.idempotentHint;
  if (a.openWorldHint !== undefined) out.openWorld = a.openWorldHint;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The remote's input schema as the tool's parameters. Its `$schema` stays: the schema is validated
 * by the rules of the dialect it declares (draft 2020-12 when it declares none, as MCP 2025-11-25
 * says), and registration refuses a dialect toolwright does not validate.
 */
function parametersOf(tool: McpTool): ObjectJsonSchema {
  const schema = tool.inputSchema as Record<string, unknown> & { properties?: ObjectJsonSchema['properties'] };
  return { ...schema, type: 'object', properties: schema.properties ?? {} } as ObjectJsonSchema;
}

/** @internal Where a {@link remoteAgentTool} comes from and how its calls are sent. */
export interface RemoteToolSource {
  /** The connected client its calls go through. */
  readonly client: McpImportClient;
  /** The remote's name for itself, bounded (for a description the remote did not give). */
  readonly serverName: string;
  /** The per-call request timeout in ms (the SDK's default when `undefined`). */
  readonly requestTimeoutMs: number | undefined;
  /** How much content one result may keep. */
  readonly contentLimits: ContentLimits;
}

/**
 * @internal A remote MCP tool as an `AgentTool` named `local`: its JSON Schema and annotations
 * (title and output schema as MCP options); a call goes to the remote with the call's
 * `AbortSignal` and relays its progress, and its result maps back to a `ToolResult`.
 *
 * @example
 * toolkit.registerTool(remoteAgentTool(remote, 'gh_search', { client, serverName: 'github', requestTimeoutMs: undefined, contentLimits: { maxParts: 100, maxBytes: 1e7 } }));
 */
export function remoteAgentTool(remote: McpTool, local: string, source: RemoteToolSource): AgentTool {
  const { client, requestTimeoutMs: timeout } = source;
  const annotations = annotationsOf(remote);
  const behaviour: ToolBehaviour = { tags: ['mcp'], ...(annotations ? { annotations } : {}) };
  const mcpOptions: McpToolOptions = {
    ...(remote.title ?? remote.annotations?.title ? { title: remote.title ?? remote.annotations?.title } : {}),
    ...(remote.outputSchema ? { outputSchema: remote.outputSchema as ObjectJsonSchema } : {}),
  };
  const tool: AgentTool & { [MCP_TOOL_OPTIONS]?: McpToolOptions } = {
    name: local,
    description: remote.description || remote.title || `Tool '${remote.name}' of MCP server ${source.serverName}.`,
    parameters: parametersOf(remote),
    behaviour,
    execute: async (args: Record<string, unknown>, ctx: ToolCallContext) => {
      const result = await client.callTool({ name: remote.name, arguments: args }, undefined, {
        signal: ctx.signal,
        onprogress: (p) =>
          ctx.emit({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
        resetTimeoutOnProgress: true,
        ...(timeout !== undefined ? { timeout } : {}),
      });
      return fromCallToolResult(result, source.contentLimits);
    },
  };
  if (Object.keys(mcpOptions).length) Object.defineProperty(tool, MCP_TOOL_OPTIONS, { value: mcpOptions, enumerable: false });
  return tool;
}
