import { isAsyncTool, type AgentTool } from '../../model/agent-tool';
import { AsyncCompletion } from '../../executor/async/async-completion';
import type { JsonSchema, ObjectJsonSchema } from '../../model/json-schema';
import { objectSchemaOf } from '../../schema/lowering/schema-utils';

/**
 * The key under which an {@link AgentTool} object carries MCP-only details (a display title, an
 * output schema, `_meta`). A registered symbol, so two copies of toolwright agree on it.
 *
 * @example
 * const tool = { name: 'stats', description: 'Stats', parameters, execute,
 *   [MCP_TOOL_OPTIONS]: { title: 'Statistics', outputSchema: { type: 'object', properties: { n: { type: 'number' } } } } };
 */
export const MCP_TOOL_OPTIONS: unique symbol = Symbol.for('toolwright.mcp.tool');

/**
 * MCP-only details of one tool, beyond what every provider gets.
 *
 * @example
 * createMcpServer(toolkit, { name: 'app', version: '1.0.0',
 *   tools: { get_forecast: { title: 'Weather forecast' } } });
 */
export interface McpToolOptions {
  /** A human-readable title (`Tool.title` and `annotations.title`). */
  title?: string | undefined;
  /**
   * The JSON Schema of the tool's structured result. An object schema is served as is and the
   * result's `data` becomes `structuredContent`; any other schema is wrapped as
   * `{ result: <schema> }` (MCP output schemas have an object root) and so is the value.
   * `false` turns a manifest-derived output schema off.
   */
  outputSchema?: JsonSchema | false | undefined;
  /** Extra `_meta` served with the tool definition. */
  meta?: Record<string, unknown> | undefined;
  /**
   * The annotations served (`Tool.annotations`), instead of the ones derived from the tool's
   * `behaviour.annotations`: an imported tool re-serves its server's own hints this way. The
   * `title` above, when given, is served as `annotations.title` unless this has one.
   */
  annotations?: McpToolHints | undefined;
  /**
   * Whether MCP clients may (`'optional'`), must (`'required'`) or must not (`'forbidden'`) call
   * the tool as an MCP task (`execution.taskSupport`). Default: `'optional'` for tools that finish
   * in the background (an `AsyncTool`, a method with an `AsyncCompletion` parameter) and for
   * imported tools the remote runs as tasks; `'forbidden'` (not served) otherwise.
   */
  taskSupport?: McpTaskSupport | undefined;
  /**
   * For 2026-07-28 clients of the tasks extension: ask the questions of the call's before-hooks
   * (an approval by elicitation, a hook that asks the user for an argument) as Multi Round-Trip
   * rounds before the task is created — the retry with the answers creates it, and the task runs
   * the call with them replayed. Default `false`: the call is a task from its first request and
   * its questions are parked on the task. Leave it off when a before-hook waits on anything but
   * the client (an external approver): the round would hold the request while it waits, and the
   * hook runs again in the task.
   */
  askBeforeTask?: boolean | undefined;
}

/**
 * How a tool may be called as an MCP task (the MCP `execution.taskSupport` values).
 *
 * @example
 * createMcpServer(toolkit, { name: 'app', version: '1.0.0', tools: { build_report: { taskSupport: 'optional' } } });
 */
export type McpTaskSupport = 'forbidden' | 'optional' | 'required';

/**
 * MCP tool annotations, as the MCP specification names them: hints about a tool for clients,
 * which clients must not trust unless they trust the server.
 *
 * @example
 * const hints: McpToolHints = { title: 'Search', readOnlyHint: true, openWorldHint: true };
 */
export interface McpToolHints {
  /** A human-readable title. */
  readonly title?: string | undefined;
  /** The tool does not modify its environment. */
  readonly readOnlyHint?: boolean | undefined;
  /** The tool may perform destructive updates (meaningful when not read-only). */
  readonly destructiveHint?: boolean | undefined;
  /** Calling it again with the same arguments has no further effect (meaningful when not read-only). */
  readonly idempotentHint?: boolean | undefined;
  /** The tool interacts with an open world of external entities. */
  readonly openWorldHint?: boolean | undefined;
}

/**
 * An {@link AgentTool} that carries {@link McpToolOptions} under {@link MCP_TOOL_OPTIONS}.
 *
 * @example
 * const tool: McpAgentTool = { ...echo, [MCP_TOOL_OPTIONS]: { title: 'Echo' } };
 */
export type McpAgentTool = AgentTool & { readonly [MCP_TOOL_OPTIONS]?: McpToolOptions | undefined };

/**
 * Attaches MCP-only details to an {@link AgentTool} object (returns the same object).
 *
 * @example
 * toolkit.registerTool(withMcpOptions(statsTool, { title: 'Statistics', outputSchema: statsSchema }));
 */
export function withMcpOptions<T extends AgentTool>(tool: T, options: McpToolOptions): T & { readonly [MCP_TOOL_OPTIONS]: McpToolOptions } {
  Object.defineProperty(tool, MCP_TOOL_OPTIONS, { value: Object.freeze({ ...options }), enumerable: false, configurable: true });
  return tool as T & { readonly [MCP_TOOL_OPTIONS]: McpToolOptions };
}

/**
 * How a tool's structured result is served: the output schema, and whether values are wrapped
 * as `{ result }` (MCP output schemas have an object root).
 *
 * @example
 * const shape: OutputShape = { schema: { type: 'object', properties: { result: { type: 'number' } }, required: ['result'] }, wrap: true };
 */
export interface OutputShape {
  readonly schema: ObjectJsonSchema;
  readonly wrap: boolean;
}

/** The `returns` schema a decorated tool got from the build-time manifest (a `MethodTool` descriptor), if any. */
function manifestReturns(tool: AgentTool): JsonSchema | undefined {
  const descriptor = (tool as { readonly descriptor?: { readonly returns?: unknown } }).descriptor;
  const returns = descriptor?.returns;
  return typeof returns === 'object' && returns !== null ? (returns as JsonSchema) : undefined;
}

function typesOf(schema: JsonSchema): readonly string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type : undefined;
}

/** A manifest `returns` that is toolwright's own `ToolResult` (a tool returning `toolResult(…)`): text, not structured output. */
function isToolResultSchema(schema: JsonSchema): boolean {
  const properties = schema.properties;
  return properties !== undefined && 'forLLM' in properties && 'isError' in properties;
}

/**
 * @internal The output shape of `tool`, or `undefined` when its result is plain text: void, `null`,
 * string and `ToolResult` return types declare no structured output.
 */
export function outputShapeOf(tool: AgentTool, override: McpToolOptions | undefined): OutputShape | undefined {
  const own = (tool as McpAgentTool)[MCP_TOOL_OPTIONS];
  const declared = override?.outputSchema ?? own?.outputSchema ?? tool.behaviour?.outputSchema ?? manifestReturns(tool);
  if (declared === undefined || declared === false) return undefined;
  if (declared === manifestReturns(tool) && isToolResultSchema(declared)) return undefined;
  const types = typesOf(declared);
  if (types && types.every((t) => t === 'string' || t === 'null')) return undefined;
  if (types && types.length === 1 && types[0] === 'object' && !declared.anyOf && !declared.oneOf) {
    const { $schema: _drop, ...schema } = declared;
    // the MCP SDK's clients want an object schema for each property
    const properties = Object.fromEntries(Object.entries(declared.properties ?? {}).map(([name, property]) => [name, objectSchemaOf(property)]));
    return { schema: { ...schema, type: 'object', properties }, wrap: false };
  }
  const { $schema: _drop, ...inner } = declared;
  return { schema: { type: 'object', properties: { result: inner }, required: ['result'] }, wrap: true };
}

/** @internal The title of `tool` for MCP, if one was given. */
export function titleOf(tool: AgentTool, override: McpToolOptions | undefined): string | undefined {
  return override?.title ?? (tool as McpAgentTool)[MCP_TOOL_OPTIONS]?.title ?? tool.behaviour?.title;
}

const HINT_KEYS = [
  ['readOnly', 'readOnlyHint'],
  ['destructive', 'destructiveHint'],
  ['idempotent', 'idempotentHint'],
  ['openWorld', 'openWorldHint'],
] as const;

/**
 * @internal The annotations `tool` is served with, if any: its MCP options' own (an imported
 * tool's server hints), else those its `behaviour.annotations` say; `title` as `annotations.title`.
 */
export function hintsOf(tool: AgentTool, override: McpToolOptions | undefined, title: string | undefined): McpToolHints | undefined {
  const own = override?.annotations ?? (tool as McpAgentTool)[MCP_TOOL_OPTIONS]?.annotations;
  const hints: { -readonly [K in keyof McpToolHints]: McpToolHints[K] } = {};
  if (title !== undefined) hints.title = title;
  const behaviour = tool.behaviour?.annotations;
  if (own !== undefined) Object.assign(hints, own);
  else if (behaviour) for (const [from, to] of HINT_KEYS) if (behaviour[from] !== undefined) hints[to] = behaviour[from];
  return Object.keys(hints).length > 0 ? hints : undefined;
}

/** @internal Extra `_meta` of `tool` for MCP, if any. */
export function metaOf(tool: AgentTool, override: McpToolOptions | undefined): Record<string, unknown> | undefined {
  return override?.meta ?? (tool as McpAgentTool)[MCP_TOOL_OPTIONS]?.meta;
}

/** True when `tool` may answer with an async result and finish in the background. */
function finishesInBackground(tool: AgentTool): boolean {
  if (isAsyncTool(tool)) return true;
  const params = (tool as { readonly descriptor?: { readonly params?: readonly { readonly kind: string; readonly type?: unknown }[] } }).descriptor?.params;
  return params?.some((p) => p.kind === 'context' && p.type === AsyncCompletion) === true;
}

/**
 * @internal How `tool` may be called as an MCP task: its MCP options' `taskSupport`, else
 * `'optional'` for a tool that finishes in the background, else `'forbidden'`.
 */
export function taskSupportOf(tool: AgentTool, override: McpToolOptions | undefined): McpTaskSupport {
  return override?.taskSupport ?? (tool as McpAgentTool)[MCP_TOOL_OPTIONS]?.taskSupport ?? (finishesInBackground(tool) ? 'optional' : 'forbidden');
}
