import type { ClientRequests } from './client-requests';
import type { ContextKey, ToolExecutionContext } from './execution-context';
import type { JsonSchema, ReadonlyObjectJsonSchema } from './json-schema';
import type { RepairMode } from './repair-types';
import type { LogLevel } from './tool-emitter';
import type { StandardSchemaLike } from './standard-schema';
import type {
  RetryOptions,
  ToolAnnotations,
  ToolConcurrency,
  ToolProgress,
  ToolResult,
  ToolRisk,
} from './tool-types';

/** Behaviour options shared by decorated tools and plain {@link AgentTool} objects. */
export interface ToolBehaviour {
  /** The group the tool belongs to (tools without a group are always active). */
  group?: string | undefined;
  /** Per-call timeout in ms (overrides the toolkit default; `0` disables it). */
  timeoutMs?: number | undefined;
  /** Retry policy (merged over the toolkit's). */
  retry?: RetryOptions | undefined;
  /** `'sequential'` tools run one at a time, in call order, within a batch. */
  concurrency?: ToolConcurrency | undefined;
  /** Behaviour hints (MCP annotations). */
  annotations?: ToolAnnotations | undefined;
  /** How risky a call is. */
  risk?: ToolRisk | undefined;
  /** The longest text the model gets from this tool; longer results keep head and tail. */
  maxResultChars?: number | undefined;
  /** Free-form labels. */
  tags?: string[] | undefined;
  /**
   * Scopes the caller's `Principal` must all hold: a caller without one does not see the tool in
   * any list, and its call answers `FORBIDDEN` before any hook or preset runs.
   */
  scopes?: readonly string[] | undefined;
  /**
   * Example arguments, each checked against the tool's schema at registration (a preset parameter
   * may not appear: presets are hidden). Sent to Anthropic as `input_examples`; rendered into the
   * description for providers without such a field, within a size budget (see the lowering report).
   */
  examples?: readonly Readonly<Record<string, unknown>>[] | undefined;
  /**
   * The tool's result is the answer: `runToolLoop` ends with it (after the rest of the batch) without
   * another model call. An error result does not end the loop.
   */
  returnDirect?: boolean | undefined;
  /** A human-readable title (MCP `title`). */
  title?: string | undefined;
  /** The JSON Schema of the tool's structured output (MCP `outputSchema` + `structuredContent`). */
  outputSchema?: JsonSchema | undefined;
  /**
   * Repair the model's malformed or mistyped arguments when that cannot change their meaning
   * (`'safe'`), or refuse them (`'off'`); default: the toolkit's `repair` (itself `'off'`).
   * See the README's "Argument repair".
   */
  repair?: RepairMode | undefined;
}

/** Resolves context objects along the call > agent > toolkit chain. */
export interface ContextResolver {
  /** The nearest value registered under `key`, or `undefined`. */
  get<T>(key: ContextKey<T>): T | undefined;
}

/** What a running tool gets besides its arguments. */
export interface ToolCallContext {
  /** The id of the call being answered. */
  readonly callId: string;
  /** The tool's name. */
  readonly toolName: string;
  /** Fires on timeout or when the caller aborts. */
  readonly signal: AbortSignal;
  /** The session the call belongs to, if any. */
  readonly sessionId?: string | undefined;
  /** 1 for the first attempt, then 2, 3… on retries. */
  readonly attempt: number;
  /** Context objects (user, tenant…) along the priority chain. */
  readonly context: ContextResolver;
  /** Streams progress to `events$` and the caller's `onProgress`. */
  emit(progress: ToolProgress | string): void;
  /**
   * Logs a message to `events$` (`call_log`) and the caller's `onLog` (over MCP: a
   * `notifications/message`), as `ToolEmitter.log` does. Always set by the toolkit (optional so
   * that a unit test can build a context without it).
   */
  readonly log?: ((level: LogLevel, data: unknown, logger?: string) => void) | undefined;
  /**
   * Requests to the client that made the call: sampling and elicitation (see `ClientRequests`).
   * Always set by the toolkit (optional so that a unit test can build a context without it).
   */
  readonly client?: ClientRequests | undefined;
}

/**
 * A tool defined without decorators.
 *
 * @example
 * const echo: AgentTool = {
 *   name: 'echo', description: 'Echo the text',
 *   parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 *   execute: (args) => String(args.text),
 * };
 * toolkit.registerTool(echo);
 */
export interface AgentTool {
  /** Unique name (`^[a-zA-Z0-9_-]{1,64}$` to suit every provider). */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /**
   * The JSON Schema of the arguments (object root). Typed readonly at every depth: registration
   * freezes the schema the toolkit keeps, parts of it shared with this one.
   */
  readonly parameters: ReadonlyObjectJsonSchema;
  /** Behaviour options (group, timeout, retry…). */
  readonly behaviour?: ToolBehaviour | undefined;
  /**
   * Runs the tool with validated arguments. May return a string, a {@link ToolResult}, any
   * JSON-serialisable value, a Promise, an Observable or an async generator of those.
   */
  execute(args: Record<string, unknown>, ctx: ToolCallContext): unknown;
}

/**
 * An {@link AgentTool} whose `parameters` is a Standard Schema object (zod 4, valibot, arktype):
 * `registerTool` accepts it; the registered tool shows the library's JSON Schema conversion and
 * `execute` gets the library's output.
 *
 * @example
 * toolkit.registerTool({ name: 'add', description: 'Add', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => Number(a) + Number(b) });
 */
export type StandardAgentTool = Omit<AgentTool, 'parameters'> & { readonly parameters: StandardSchemaLike };

/**
 * An {@link AgentTool} that wants the execution context before each call (Go design's
 * `ContextualTool`). `setContext` is called right before `execute`; prefer `ctx.context` in
 * `execute` for tools that run concurrently.
 */
export interface ContextualTool extends AgentTool {
  /** Receives the call's merged context before `execute`. */
  setContext(context: ToolExecutionContext, ctx: ToolCallContext): void;
}

/** Called by an {@link AsyncTool} when its background work completes. */
export type AsyncCallback = (result: ToolResult) => void;

/**
 * An {@link AgentTool} that may answer at once with `asyncResult(...)` and complete later
 * (Go design's `AsyncTool`). The toolkit hands it a callback at registration; the tool calls
 * it with a result whose `toolCallId` names the call it completes.
 */
export interface AsyncTool extends AgentTool {
  /** Receives the completion callback once, at registration. */
  setCallback(callback: AsyncCallback): void;
}

/** True when `tool` implements {@link ContextualTool}. */
export function isContextualTool(tool: AgentTool): tool is ContextualTool {
  return typeof (tool as Partial<ContextualTool>).setContext === 'function';
}

/** True when `tool` implements {@link AsyncTool}. */
export function isAsyncTool(tool: AgentTool): tool is AsyncTool {
  return typeof (tool as Partial<AsyncTool>).setCallback === 'function';
}
