import { ClientRequests } from '../common/client-requests';
import type { ToolCall, ToolResult } from '../common/tool-types';
import { quoteInput } from '../common/quote-input';
import { describeThrown, ToolkitError } from '../errors';
import type { AsyncCompletion } from './async-completion';
import type { Attempt } from './attempt';
import type { CallLink } from './call-link';
import { ChainResolver } from './chain-resolver';
import type { Deadline, DeadlineTarget } from './deadlines';
import type { ResolvedExecution } from './execution-settings';
import type { AvailabilityView, CallOptions, ExecutorCore, RoutedEntry } from './executor-core';
import type { CallOrigin } from './hooks';
import { presetSecretsOf } from './preset-secrets';
import { redactDeep, type Scrub } from './redact';
import type { WorkerAttempt } from './remote-types';
import type { RepairChange } from '../common/repair-types';
import type { ToolEntry } from './tool-entry';

/** @internal How a call ended, beyond its result (which terminal event it emits). */
export const enum End {
  Normal = 0,
  TimedOut = 1,
  Aborted = 2,
}

/** @internal Where a call that may complete in the background stands. */
export const enum AsyncState {
  /** It may: waiting for the call's own answer. */
  Pending = 1,
  /** The call answered with an async result: waiting for the completion. */
  Armed = 2,
  /** Completed, or the answer was not async. */
  Closed = 3,
}

/** @internal The background-completion state of a call that may complete asynchronously. */
export interface AsyncTrack {
  state: AsyncState;
  /** A completion that arrived before the call answered. */
  early?: { value: unknown; failed: boolean };
  handle?: AsyncCompletion;
  /** The call's key in `asyncListeners` (AsyncTool calls). */
  toolKey?: string;
}

/**
 * @internal The state of one call: what the steps of its pipeline (`call-*.ts`, free functions
 * that take it first) read and write. `CallRun` is the one implementation (a single flat class,
 * so that V8 inlines its construction: a base class's would not be); as the {@link CallLink} of
 * the call it is also what its attempts, its context chain and the caller-abort watch call back.
 */
export interface CallState extends CallLink, DeadlineTarget {
  readonly core: ExecutorCore;
  readonly view: AvailabilityView;
  readonly call: ToolCall;
  readonly options: CallOptions;
  /** How to run the call again as requested (hooks such as approval keep it); set when hooks exist. */
  readonly origin?: CallOrigin;
  /** What the dispatcher resolved the call's name to; `undefined`: no tool has that name. */
  readonly routed: RoutedEntry | undefined;
  /** Set when a worker runs the call for a queued job: one attempt, no hooks, retries left to the queue. */
  readonly handoff: WorkerAttempt | undefined;
  /**
   * When the call started, or -1 until a clock reading is needed: reading the clock costs as much
   * as a tenth of a synchronous call on some VMs, so it is read at the start only when `events$`
   * is observed, and otherwise when the call first goes asynchronous (a call that answers in the
   * same tick lasts 0 ms to the precision reported).
   */
  startedAt: number;
  /** The tool being called (once looked up). */
  entry: ToolEntry | undefined;
  /** The validated model arguments (after `null` → absent and hook rewrites). */
  args: Record<string, unknown> | undefined;
  /** Timeout and retry settings of the tool (once the arguments are valid). */
  settings: ResolvedExecution | undefined;
  /** What this call's presets resolved to (the texts to redact). */
  secrets: Set<string> | undefined;
  /** The context chain, created on first use ({@link resolverOf}). */
  chain: ChainResolver | undefined;
  /** Attempts started. */
  attempts: number;
  /** The running attempt (until the call ends). */
  current: Attempt | undefined;
  /** True once the call has its answer, `final`. */
  done: boolean;
  final: ToolResult | undefined;
  /** Which terminal event the answer gets. */
  endKind: End;
  /** How the call failed, beyond its result (kept apart: most calls never need it). */
  failure: { abortText: string; cause?: unknown } | undefined;
  /** Async completion state, for calls that may complete in the background. */
  asyncTrack: AsyncTrack | undefined;
  /** Answers `run()`'s caller before the pipeline settles (caller abort, hook deadline). */
  resolveEarly: ((result: ToolResult) => void) | undefined;
  /** A pending retry backoff (the caller's abort ends it). */
  backoffWait: { timer: ReturnType<typeof setTimeout>; done: () => void } | undefined;
  /** Attempts conclude the call themselves (no `after` hooks to run first). */
  concludeInline: boolean;
  /** The deadline of the running hook phase (hooks count against the call's timeout). */
  phaseDeadline: Deadline | undefined;
  /** The hook running now, for the timeout message. */
  phaseHook: string | undefined;
  /** When the before-hooks started (ms), so the first attempt gets what remains of the timeout. */
  hooksStartedAt: number;
  /** True once the call's one `call_started` is out (or was due while `events$` had no observer). */
  started: boolean;
  /** What hooks ask the client through (created when a hook first reads `client`). */
  hookClient: ClientRequests | undefined;
  /** Cancels the hooks' requests to the client when the call times out or is aborted. */
  hookAbort: AbortController | undefined;
  /** The toolkit's `authorize` rule answered `'approval'`: the approval manager's hook holds the call. */
  approvalRequired: boolean;
  /** What a safe repair changed in the model's arguments (`call_repaired`); `undefined`: nothing. */
  repairs: readonly RepairChange[] | undefined;
}

/** @internal The context chain of the call (created on first use). */
export function resolverOf(run: CallState): ChainResolver {
  return (run.chain ??= new ChainResolver(run, run.options, run.core));
}

/** @internal What the call's hooks ask the client through: cancelled with the call (see {@link CallState.hookAbort}). */
export function hookClientOf(run: CallState): ClientRequests {
  if (run.hookClient === undefined) {
    const abort = (run.hookAbort = new AbortController());
    run.hookClient = new ClientRequests(run.clientHandler(), {
      toolName: toolName(run),
      signal: abort.signal,
      redact: (request) => run.outgoing(request),
      get phase() {
        return run.attempts > 0 ? 'after' : 'before';
      },
    });
  }
  return run.hookClient;
}

/** @internal The error a timed-out attempt's signal is aborted with. */
export function timeoutError(run: CallState): ToolkitError {
  const name = toolName(run);
  return new ToolkitError('TIMEOUT', `Tool '${name}' timed out after ${run.settings?.timeoutMs ?? 0} ms`, { tool: name });
}

/** @internal The name of the called tool (as the model sent it while no tool is known). */
export function toolName(run: CallState): string {
  return run.entry !== undefined ? run.entry.name : String(run.call.name);
}

/** @internal The tool's name as error texts quote it (an unknown name is the model's input: bounded). */
export function quotedName(run: CallState): string {
  return run.entry !== undefined ? `'${run.entry.name}'` : quoteInput(String(run.call.name));
}

/**
 * @internal What redacts the call's output: the values its presets resolved to, and every value
 * its tool is known to use (so that output made before the presets resolve is redacted too).
 * `undefined` for tools without presets.
 */
export function redaction(run: CallState): Scrub | undefined {
  const entry = run.entry;
  if (entry === undefined || entry.presets === undefined) return undefined;
  return presetSecretsOf(entry).scrub(run.secrets);
}

/**
 * @internal `describeThrown` of a redacted copy (its JSON text then holds no secret in any
 * escaping), redacted again before the cut, so no part of a secret is left at the cut.
 */
export function describe(run: CallState, thrown: unknown): string {
  const scrub = redaction(run);
  return scrub ? describeThrown(redactDeep(thrown, scrub), scrub) : describeThrown(thrown);
}
