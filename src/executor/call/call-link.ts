import type { ContextResolver } from '../../model/agent-tool';
import type { ClientRequestHandler } from '../../model/client-requests';
import type { ToolLogEntry } from '../../model/tool-emitter';
import type { ToolProgress, ToolResult } from '../../model/tool-types';
import type { AsyncCompletion } from '../async/async-completion';

/**
 * @internal What the objects a call hands out call back into: its attempts (the context chain,
 * progress, the timeout error, the end of an attempt), its context chain (the call's
 * {@link AsyncCompletion}), an `AsyncTool`'s completion callback (through
 * `ExecutorParts.asyncListeners`). The executor's one callback interface into a call; the call
 * run implements it.
 */
export interface CallLink {
  /** The context chain of the call (created on first use). */
  resolver(): ContextResolver;
  /** Reports progress of the live attempt number `attempt`. */
  progress(progress: ToolProgress, attempt: number): void;
  /** Reports a log message of the live attempt number `attempt`. */
  log(entry: ToolLogEntry, attempt: number): void;
  /** Who answers the tool's requests to the client (the call's, else the toolkit's), if anyone. */
  clientHandler(): ClientRequestHandler | undefined;
  /** A request to the client as it may leave: redacted of the call's preset values. */
  outgoing(request: unknown): unknown;
  /** The error a timed-out attempt's signal is aborted with. */
  timeoutReason(): unknown;
  /** What the call does once its current attempt, waited for, ended (must not throw). */
  attemptEnded(): ToolResult | Promise<ToolResult>;
  /** The call's {@link AsyncCompletion} (what the context chain injects for that type). */
  asyncCompletion(): AsyncCompletion;
  /** Delivers a background completion; false when the call cannot take one (already completed, or not async). */
  deliverAsync(value: unknown, failed: boolean): boolean;
}
