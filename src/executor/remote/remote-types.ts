import type { ToolCallContext } from '../../model/agent-tool';
import type { ToolExecutionContext } from '../../model/execution-context';
import type { ToolResult } from '../../model/tool-types';
import type { AsyncCompletion } from '../async/async-completion';
import type { ToolEntry } from '../tool-entry';

/**
 * @internal One call of a routed tool, as the caller hands it to the runner (a queue): validated,
 * through the `before` hooks, with no preset value (presets are bound where the tool runs). The
 * runner reads it (`callId`, `sessionId` and `asyncCompletion` are getters of the call, which it
 * keeps private) and reports through its `attempt`.
 */
export interface RemoteCall {
  readonly entry: ToolEntry;
  readonly callId: string;
  readonly sessionId: string | undefined;
  /** The validated model arguments (never a preset parameter). */
  readonly args: Readonly<Record<string, unknown>>;
  /** The call's context objects: agent level under call level (the toolkit level stays in its process). */
  readonly context: ToolExecutionContext;
  /** When the call's timeout runs out (ms since the epoch), queue time included; `undefined`: no timeout. */
  readonly deadlineAt: number | undefined;
  /** The attempts the tool's settings allow (the queue runs them; the caller makes one call). */
  readonly maxAttempts: number;
  /** The caller's one attempt: its `signal` fires on timeout and caller abort; `emit` and `log` report to the caller. */
  readonly attempt: ToolCallContext;
  /** The call's completion handle, for a remote tool that answers with an async result (made when first read). */
  readonly asyncCompletion: AsyncCompletion;
}

/** @internal Runs a call of a routed tool elsewhere; resolves with the remote answer (or rejects: the call fails). */
export type RemoteRunner = (call: RemoteCall) => Promise<ToolResult>;

/**
 * @internal The attempt a worker runs for a queued job: the queue counts attempts and waits out
 * the backoff, so the executor runs just this one and, where it would retry, says so in
 * `retryDelayMs` (the worker hands the retry back to the queue).
 */
export interface WorkerAttempt {
  /** The attempt's number (1 for the first). */
  readonly attempt: number;
  /** The attempts the queue allows the job (the tool's own `maxAttempts` applies too). */
  readonly maxAttempts: number;
  /** When the caller's timeout runs out (ms since the epoch); `undefined`: none. */
  readonly deadlineAt: number | undefined;
  /** Set when the attempt failed and another may follow after this many ms. */
  retryDelayMs: number | undefined;
}
