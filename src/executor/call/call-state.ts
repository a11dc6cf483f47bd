import type { ClientRequests } from '../../model/client-requests';
import type { ToolCall, ToolResult } from '../../model/tool-types';
import { quoteInput } from '../../utils/quote-input';
import { describeThrown, ToolkitError } from '../../errors/toolkit-error';
import type { CallLink } from './call-link';
import type { ChainResolver } from '../chain-resolver';
import type { DeadlineTarget } from '../deadlines';
import type { ResolvedExecution } from '../execution-settings';
import type { AvailabilityGate, CallOptions, ExecutorParts, RoutedEntry, UnknownName } from '../executor-parts';
import type { CallOrigin } from '../hook-types';
import { presetSecretsOf } from '../presets/preset-secrets';
import { redactDeep, type Scrub } from '../presets/redact';
import type { WorkerAttempt } from '../remote/remote-types';
import type { RepairChange } from '../../model/repair-types';
import type { ToolEntry } from '../tool-entry';

/** @internal How a call ended, beyond its result (which terminal event it emits). */
export const enum End {
  Normal = 0,
  TimedOut = 1,
  Aborted = 2,
}

/** @internal How a call failed, beyond its result: the caller's abort reason, or what was thrown. */
export interface CallFailure {
  readonly abortText: string;
  readonly cause?: unknown;
}

/**
 * @internal The state of one call as its steps (`call-*.ts`, free functions that take it first)
 * see it: read-only. One writer keeps it, the call run (`call-run.ts`); the steps return what they
 * found (an argument list, a {@link Stop}, a result) and the run records it. As the
 * {@link CallLink} of the call it is also what its attempts, its context chain and the
 * caller-abort watch call back.
 */
export interface CallState extends CallLink, DeadlineTarget {
  readonly parts: ExecutorParts;
  /** The availability gate of the call's view (or of the skill run that makes it). */
  readonly availability: AvailabilityGate;
  readonly call: ToolCall;
  readonly options: CallOptions;
  /** How to run the call again as requested (hooks such as approval keep it); set when hooks exist. */
  readonly origin: CallOrigin | undefined;
  /** What the dispatcher resolved the call's name to: an entry, or an {@link UnknownName}. */
  readonly routed: RoutedEntry | UnknownName;
  /** Set when a worker runs the call for a queued job: one attempt, no hooks, retries left to the queue. */
  readonly handoff: WorkerAttempt | undefined;
  /**
   * When the call started, or -1 until a clock reading is needed: reading the clock costs as much
   * as a tenth of a synchronous call on some VMs, so it is read at the start only when `events$`
   * is observed, and otherwise when the call first goes asynchronous (a call that answers in the
   * same tick lasts 0 ms to the precision reported).
   */
  readonly startedAt: number;
  /** The tool being called (once looked up). */
  readonly entry: ToolEntry | undefined;
  /** The validated model arguments (after `null` → absent and hook rewrites). */
  readonly args: Record<string, unknown> | undefined;
  /** Timeout and retry settings of the tool (once the arguments are valid). */
  readonly settings: ResolvedExecution | undefined;
  /** What this call's presets resolved to (the texts to redact). */
  readonly secrets: ReadonlySet<string> | undefined;
  /** Attempts started. */
  readonly attempts: number;
  /** True once the call has its answer, `final`. */
  readonly done: boolean;
  readonly final: ToolResult | undefined;
  /** Which terminal event the answer gets. */
  readonly endKind: End;
  /** How the call failed, beyond its result (kept apart: most calls never need it). */
  readonly failure: CallFailure | undefined;
  /** When the before-hooks started (ms), so the first attempt gets what remains of the timeout. */
  readonly hooksStartedAt: number;
  /** The toolkit's `authorize` rule answered `'approval'`: the approval manager's hook holds the call. */
  readonly approvalRequired: boolean;
  /** What a safe repair changed in the model's arguments (`call_repaired`); `undefined`: nothing. */
  readonly repairs: readonly RepairChange[] | undefined;
  /** The context chain of the call (created on first use). */
  resolver(): ChainResolver;
  /** What the call's hooks ask the client through (created on first use), cancelled with the call. */
  hookRequests(): ClientRequests;
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
