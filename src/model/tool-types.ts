import type { ToolkitErrorCode } from '../errors';
import type { ReadonlyObjectJsonSchema } from './json-schema';
import type { ToolContent } from './tool-content';

/** A tool call as a model emits it: `arguments` is the model's raw JSON text or an object. */
export interface ToolCall {
  /** The provider's call id; the result answers it. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments: the JSON string a model emits, or an already-parsed object. */
  arguments: string | Record<string, unknown>;
}

/** The error carried by a failed {@link ToolResult}. */
export interface ToolResultError {
  /**
   * A stable code: one of toolwright's own ({@link ToolkitErrorCode}, e.g. `INVALID_ARGUMENTS`,
   * `TIMEOUT`; offered by autocompletion), or any string a tool chooses for its own failures.
   */
  code: ToolkitErrorCode | (string & {});
  /** What went wrong, written so that a model can repair its call. */
  message: string;
}

/**
 * What a tool call produced. What the model sees (`forLLM`) is kept apart from what the user
 * sees (`forUser`). A rich result also carries `content` parts (images, audio, resources); its
 * `forLLM` and `forUser` are then their texts (see `contentResult`).
 */
export interface ToolResult {
  /** The text sent back to the model (for a rich result: the text of the parts meant for it). */
  forLLM: string;
  /** The text shown to the user, if any. */
  forUser?: string | undefined;
  /**
   * The result's content parts (text, image, audio, embedded resources, resource links), each
   * with optional `annotations`; served as MCP content. Absent on text-only results.
   */
  content?: readonly ToolContent[] | undefined;
  /** True when nothing should be shown to the user. */
  silent: boolean;
  /** True when the call failed; `error` then says why. */
  isError: boolean;
  /** True when the tool goes on in the background and completes later. */
  async: boolean;
  /** The structured value the tool returned, when it returned something other than text. */
  data?: unknown;
  /** Why the call failed. */
  error?: ToolResultError | undefined;
  /** The id of the call this result answers. */
  toolCallId?: string | undefined;
  /** The name of the tool that was called. */
  name?: string | undefined;
}

/**
 * The provider-neutral definition of a tool: what `getToolSchemas()` returns, deep-frozen (its
 * members readonly at every depth).
 */
export interface ToolSchema {
  /** The tool's unique name. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** The JSON Schema of the tool's visible parameters (an object schema). */
  readonly parameters: ReadonlyObjectJsonSchema;
  /** Example arguments (`@Tool({ examples })`), checked against `parameters` at registration. */
  readonly examples?: readonly Readonly<Record<string, unknown>>[] | undefined;
}

/** A progress report streamed by a running tool through its {@link ToolEmitter}. */
export interface ToolProgress {
  /** Progress so far (for example bytes done, or a fraction). */
  progress?: number | undefined;
  /** The total `progress` is counting towards, when known. */
  total?: number | undefined;
  /** A human-readable status line. */
  message?: string | undefined;
  /** Anything else the tool wants to stream. */
  data?: unknown;
}

/** Behaviour hints, as in MCP tool annotations. */
export interface ToolAnnotations {
  /** The tool does not change its environment. */
  readOnly?: boolean | undefined;
  /** The tool may perform destructive updates. */
  destructive?: boolean | undefined;
  /** Calling it again with the same arguments has no further effect. */
  idempotent?: boolean | undefined;
  /** The tool reaches an open world (the internet, other systems). */
  openWorld?: boolean | undefined;
}

/** How risky calling a tool is; approval policies key on it. */
export type ToolRisk = 'low' | 'medium' | 'high';

/** Whether a tool may run beside others in a batch. */
export type ToolConcurrency = 'parallel' | 'sequential';

/** Retry policy of a tool or of the toolkit. */
export interface RetryOptions {
  /** Attempts in all, the first included (1 = no retry). */
  maxAttempts?: number | undefined;
  /** Delay before the second attempt, in ms. */
  initialBackoffMs?: number | undefined;
  /** Each further delay is the previous one times this. */
  backoffMultiplier?: number | undefined;
  /** Upper bound of a delay, in ms. */
  maxBackoffMs?: number | undefined;
  /** Randomise each delay by up to this fraction (0..1) of itself. */
  jitter?: number | undefined;
  /** Decides whether a failure is worth another attempt (default: every thrown error). */
  retryOn?: ((error: unknown, attempt: number) => boolean) | undefined;
}

/** Execution defaults of a toolkit (each may be overridden per tool). */
export interface ExecutionOptions extends RetryOptions {
  /** Per-call timeout in ms; `0` or absent means none. */
  timeoutMs?: number | undefined;
}
