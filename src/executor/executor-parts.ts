import type { ToolkitContainer } from '../di/services';
import type { Subject } from 'rxjs';
import type { MalformedArguments } from '../model/call-arguments';
import type { ClientRequestHandler } from '../model/client-requests';
import type { ToolExecutionContext } from '../model/execution-context';
import type { CallbackFailureReporter } from '../utils/guarded-observable';
import type { ToolLogEntry } from '../model/tool-emitter';
import type { ToolProgress, ToolResult } from '../model/tool-types';
import type { CallLink } from './call/call-link';
import type { DeadlineScheduler } from './deadlines';
import type { ToolEvent } from './event-types';
import type { ResolvedExecution } from './execution-settings';
import type { RemoteRunner } from './remote/remote-types';
import type { ToolHook } from './hook-types';
import type { RepairMode } from '../model/repair-types';
import type { ToolEntry } from './tool-entry';
import type { Authorize } from './authorization';
import type { SchemaValidators } from './validation/validation';

/** Progress as delivered to a caller's `onProgress`: tagged with the call. */
export interface CallProgress extends ToolProgress {
  /** The call that reported it. */
  callId: string;
  /** The tool that reported it. */
  tool: string;
}

/** A log message as delivered to a caller's `onLog`: redacted, bounded, tagged with the call. */
export interface CallLog extends ToolLogEntry {
  /** The call that logged it. */
  readonly callId: string;
  /** The tool that logged it. */
  readonly tool: string;
}

/**
 * Options of `callTool` / `callTools`.
 *
 * @example
 * const controller = new AbortController();
 * await toolkit.callTools(calls, {
 *   signal: controller.signal,
 *   onProgress: (p) => ui.progress(p.callId, p.message),
 *   onAsyncComplete: (r) => followUps.push({ role: 'tool', toolCallId: r.toolCallId, content: r.forLLM }),
 * });
 */
export interface CallOptions {
  /** Call-level context objects (highest priority in the chain). */
  context?: ToolExecutionContext | undefined;
  /** Agent-level context objects (`runToolLoop` passes its `context` here). */
  agentContext?: ToolExecutionContext | undefined;
  /**
   * Aborts the call(s): a running tool's injected `AbortSignal` fires with the signal's reason,
   * a pending retry backoff stops, and the call resolves at once with an `ABORTED` result. A
   * signal that is already aborted answers `ABORTED` without running anything.
   */
  signal?: AbortSignal | undefined;
  /** Receives each progress report of the call(s), in order, tagged with the call id. */
  onProgress?: ((progress: CallProgress) => void) | undefined;
  /**
   * Receives each log message of the call(s) (`ToolEmitter.log`, `ctx.log`), in order, tagged
   * with the call id; preset values redacted, `data` cut to 8 KiB of JSON.
   */
  onLog?: ((log: CallLog) => void) | undefined;
  /**
   * Answers the tools' requests to the client (sampling, elicitation) for these calls, over the
   * toolkit's `clientRequests`. `createMcpServer` sets it to the MCP client of the request.
   */
  client?: ClientRequestHandler | undefined;
  /**
   * Receives the completion of calls that answered with an async result (an `AsyncTool`'s
   * callback, or `AsyncCompletion` of a decorated tool); `toolCallId` is the call id.
   */
  onAsyncComplete?: ((result: ToolResult) => void) | undefined;
  /**
   * The session of the call, for the toolkit's own view (events, hooks and the tool's context
   * carry it). A session's view always uses its own id: another id given here is ignored there.
   */
  sessionId?: string | undefined;
}

/** @internal The options of a call made without any: one frozen object, shared, never changed. */
export const NO_OPTIONS: CallOptions = Object.freeze({});

/**
 * Why the view a call is made in (or a skill run's scope) refuses the call's tool now:
 * `SESSION_CLOSED` once the view closed (or expired), else `TOOL_DISABLED`, with a message for the model.
 */
export interface GateRefusal {
  readonly code: 'TOOL_DISABLED' | 'SESSION_CLOSED';
  readonly message: string;
}

/**
 * The availability gate of the view a call is made in, asked before anything of the call runs and
 * again once its `before` hooks decided (`afterHooks`): `undefined` while `entry` may run there, else
 * the refusal. The first check asks only whether the view enables `entry` (the dispatcher refused a
 * closed session just before); the check after the hooks also asks whether the view closed meanwhile.
 */
export type AvailabilityGate = (entry: ToolEntry, afterHooks: boolean) => GateRefusal | undefined;

/** @internal What the dispatcher found for a call's name that no tool has: the names its view enables, for "did you mean". */
export interface UnknownName {
  readonly entry: undefined;
  readonly enabledNames: readonly string[];
}

/** Everything the executor needs from a toolkit (not exported by the package). */
export interface ExecutorParts {
  /** @internal Compiles tool schemas, each by the rules of its JSON Schema dialect. */
  readonly validators: SchemaValidators;
  readonly hooks: readonly ToolHook[];
  readonly events: Subject<ToolEvent>;
  /** Where a user callback's failure goes (a `callback_failed` event), never into the call. */
  readonly report: CallbackFailureReporter;
  readonly deadlines: DeadlineScheduler;
  readonly defaults: ResolvedExecution;
  readonly container: ToolkitContainer;
  readonly context: ToolExecutionContext;
  readonly maxResultChars?: number | undefined;
  /** Answers the tools' requests to the client when a call's options name none. */
  readonly clientRequests?: ClientRequestHandler | undefined;
  /** @internal Calls of `AsyncTool`s waiting for their completion callback, by `asyncKey`. */
  readonly asyncListeners: Map<string, CallLink>;
  /** The toolkit's `authorize` rule, if any. */
  readonly authorize?: Authorize | undefined;
  /** The toolkit's default {@link RepairMode} (a tool's own `repair` wins). */
  readonly repair?: RepairMode | undefined;
  /** @internal How the calls of `entry` run elsewhere (a route such as `queueTools` takes it); `undefined`: they run here. */
  runnerFor(entry: ToolEntry): RemoteRunner | undefined;
}

/**
 * @internal What the dispatcher resolved a call's name to: `entry` runs, and the availability gate
 * checks `checkedEntry` — the entry itself for a registered tool, the registered entry a meta tool bound to
 * the calling view was made from.
 */
export interface RoutedEntry {
  readonly entry: ToolEntry;
  readonly checkedEntry: ToolEntry;
  /** The call's arguments when routing already parsed them (`parseCallArguments`: they are not parsed again), else `undefined`. */
  readonly parsed: Record<string, unknown> | MalformedArguments | undefined;
}
