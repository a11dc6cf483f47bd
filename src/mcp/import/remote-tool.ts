import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool, ToolBehaviour, ToolCallContext } from '../../model/agent-tool';
import type { ObjectJsonSchema } from '../../model/json-schema';
import { deepFreeze } from '../../schema/lowering/schema-utils';
import { schemaProblems } from '../../schema/schema-problems';
import type { ToolAnnotations, ToolRisk } from '../../model/tool-types';
import type { ContentLimits } from './import-content';
import { MCP_TOOL_OPTIONS, type McpToolHints, type McpToolOptions } from '../shared/mcp-tool-options';
import type { RemoteConnection } from './remote-connection';
import { fromCallToolResult } from './remote-result';

/**
 * What a tool of unknown behaviour is taken to do, per the MCP specification's defaults for
 * absent hints: it may write, destructively, is not idempotent and reaches an open world. An
 * imported tool whose annotations are not trusted has these.
 */
const UNTRUSTED_BEHAVIOUR: ToolAnnotations = Object.freeze({ readOnly: false, destructive: true, idempotent: false, openWorld: true });

const HINTS = [
  ['readOnlyHint', 'readOnly'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'openWorld'],
] as const;

/** The remote's annotations as served again: its title and its boolean hints (anything else is dropped and reported). */
function remoteHints(remote: McpTool, changes: string[]): McpToolHints {
  const a = (remote.annotations ?? {}) as Record<string, unknown>;
  const hints: { -readonly [K in keyof McpToolHints]: McpToolHints[K] } = {};
  if (typeof a.title === 'string') hints.title = a.title;
  const dropped: string[] = [];
  for (const [hint] of HINTS) {
    if (typeof a[hint] === 'boolean') hints[hint] = a[hint];
    else if (a[hint] !== undefined) dropped.push(hint);
  }
  if (dropped.length > 0) changes.push(`annotations ${dropped.join(', ')} dropped: not booleans`);
  return hints;
}

/**
 * The annotations toolwright and the application's hooks see: the server's hints when trusted,
 * else MCP's defaults for a tool of unknown behaviour (a hint never makes an untrusted tool look safer).
 */
function behaviourHints(hints: McpToolHints, trusted: boolean, changes: string[]): ToolAnnotations {
  if (!trusted) {
    const relaxing = HINTS.filter(([hint, own]) => hints[hint] !== undefined && hints[hint] !== UNTRUSTED_BEHAVIOUR[own]).map(([hint]) => `${hint}: ${String(hints[hint])}`);
    if (relaxing.length > 0) {
      changes.push(
        `annotations ${relaxing.join(', ')} kept as untrusted hints (served again over MCP) but not relied on: ` +
          'toolwright and your hooks see MCP defaults (not read-only, destructive, not idempotent, open world); trustAnnotations: true relies on them',
      );
    }
    return UNTRUSTED_BEHAVIOUR;
  }
  const out: ToolAnnotations = {};
  for (const [hint, own] of HINTS) if (hints[hint] !== undefined) out[own] = hints[hint];
  return out;
}

/** @internal A remote input schema made ready once: the tool's parameters (deep-frozen), what was changed of it, and its size in nodes. */
export interface PreparedInput {
  readonly parameters: ObjectJsonSchema;
  /** What the import changed of the remote's input schema (see `McpImportedTool.changes`). */
  readonly changes: readonly string[];
  /** Its objects and arrays (what `maxSchemaNodes` counts). */
  readonly nodes: number;
  /** Why the toolkit will refuse it (not a valid JSON Schema of its dialect), or `undefined`. */
  readonly problem: string | undefined;
}

/**
 * @internal The remote's input schema as the tool's parameters, frozen and checked against its
 * dialect's meta-schema here, so that registering it does not walk it again. Its `$schema` stays:
 * the schema is validated by the rules of the dialect it declares (draft 2020-12 when it declares
 * none, as MCP 2025-11-25 says), and registration refuses a dialect toolwright does not validate.
 *
 * @example
 * const input = prepareInput(remote, inputNodes); // input.problem: why it cannot be registered
 */
export function prepareInput(tool: McpTool, nodes: number): PreparedInput {
  const changes: string[] = [];
  const schema = tool.inputSchema as Record<string, unknown> & { properties?: ObjectJsonSchema['properties'] };
  if (schema.type !== 'object') changes.push('input schema: type "object" added');
  if (schema.properties === undefined) changes.push('input schema: properties {} added');
  const parameters = deepFreeze({ ...schema, type: 'object', properties: schema.properties ?? {} } as ObjectJsonSchema);
  return { parameters, changes, nodes, problem: schemaProblems(parameters) };
}

function descriptionOf(remote: McpTool, serverName: string, changes: string[]): string {
  if (remote.description) return remote.description;
  if (remote.title) {
    changes.push('no description: its title is the description');
    return remote.title;
  }
  changes.push('no description: one naming the server was written');
  return `Tool '${remote.name}' of MCP server ${serverName}.`;
}

/** @internal Where a {@link remoteAgentTool} comes from and how its calls are sent. */
export interface RemoteToolSource {
  /** The connection its calls go through. */
  readonly remote: RemoteConnection;
  /** The remote's name for itself, bounded (for a description the remote did not give). */
  readonly serverName: string;
  /** The per-call request timeout in ms (the SDK's default when `undefined`). */
  readonly requestTimeoutMs: number | undefined;
  /** How much content one result may keep. */
  readonly contentLimits: ContentLimits;
  /** Whether the server's annotations are relied on (`trustAnnotations`). */
  readonly trustAnnotations: boolean;
  /** The risk level the application gives every imported tool. */
  readonly risk: ToolRisk | undefined;
}

/**
 * @internal A remote MCP tool as an `AgentTool` named `local` with the `input` {@link prepareInput}
 * made, and what the import changed of its definition (see `McpImportedTool.changes`): its
 * annotations (served again as
 * they are; relied on only when trusted), title and output schema as MCP options. A call goes to
 * the remote with the call's `AbortSignal` and relays its progress, and its result maps back to
 * a `ToolResult`.
 *
 * @example
 * const { tool } = remoteAgentTool(remote, 'gh_search', { remote: remoteConnection(client), serverName: 'github', requestTimeoutMs: undefined,
 *   contentLimits: { maxParts: 100, maxBytes: 1e7 }, trustAnnotations: false, risk: 'high' }, prepareInput(remote, nodes));
 */
export function remoteAgentTool(
  remote: McpTool,
  local: string,
  source: RemoteToolSource,
  input: PreparedInput,
): { readonly tool: AgentTool; readonly changes: readonly string[] } {
  const { remote: connection, requestTimeoutMs: timeout } = source;
  const changes: string[] = [];
  const taskSupport = remote.execution?.taskSupport;
  if (taskSupport === 'required') changes.push('called as an MCP task (execution.taskSupport required): tools/call with task, then tasks/get and tasks/result');
  const hints = remoteHints(remote, changes);
  const behaviour: ToolBehaviour = {
    tags: ['mcp'],
    annotations: behaviourHints(hints, source.trustAnnotations, changes),
    ...(source.risk !== undefined ? { risk: source.risk } : {}),
  };
  const title = remote.title ?? hints.title;
  const mcpOptions: McpToolOptions = {
    annotations: hints,
    ...(title !== undefined ? { title } : {}),
    ...(remote.outputSchema ? { outputSchema: remote.outputSchema as ObjectJsonSchema } : {}),
    // served again as a task when asked: toolwright waits for the remote task either way
    ...(taskSupport === 'required' || taskSupport === 'optional' ? { taskSupport: 'optional' as const } : {}),
  };
  const tool: AgentTool = {
    name: local,
    description: descriptionOf(remote, source.serverName, changes),
    parameters: input.parameters,
    behaviour,
    execute: async (args: Record<string, unknown>, ctx: ToolCallContext) => fromCallToolResult(await connection.call(remote, args, ctx, timeout), source.contentLimits),
  };
  Object.defineProperty(tool, MCP_TOOL_OPTIONS, { value: mcpOptions, enumerable: false });
  return { tool, changes: [...changes, ...input.changes] };
}
