import type { ToolProgress, ToolCall, ToolResult } from '../common/tool-types';
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
 * @internal The state of one call, read and written by the steps of its pipeline (`call-*.ts`,
 * free functions that take it first). One object per call, its fields all set in the constructor
 * so that every call has one shape; the orchestrator (`CallRun`) extends it and wires the
 * {@link CallLink} methods the objects it hands out call back into.
 */
export abstract class CallState implements CallLink, DeadlineTarget {
  /**
   * When the call started, or -1 until a clock reading is needed: reading the clock costs as much
   * as a tenth of a synchronous call on some VMs, so it is read at the start only when `events$`
   * is observed, and otherwise when the call first goes asynchronous (a call that answers in the
   * same tick lasts 0 ms to the precision reported).
   */
  startedAt: number;
  entry: ToolEntry | undefined = undefined;
  /** The validated model arguments (after `null` → absent and hook rewrites). */
  args: Record<string, unknown> | undefined = undefined;
  settings: ResolvedExecution | undefined = undefined;
  /** What this call's presets resolved to (the texts to redact). */
  secrets: Set<string> | undefined = undefined;
  chain: ChainResolver | undefined = undefined;
  /** Attempts started. */
  attempts = 0;
  current: Attempt | undefined = undefined;
  done = false;
  final: ToolResult | undefined = undefined;
  endKind = End.Normal;
  /** How the call failed, beyond its result (kept apart: most calls never need it). */
  failure: { abortText: string; cause?: unknown } | undefined = undefined;
  /** Async completion state, for calls that may complete in the background. */
  asyncTrack: AsyncTrack | undefined = undefined;
  /** Answers `run()`'s caller before the pipeline settles (caller abort, hook deadline). */
  resolveEarly: ((result: ToolResult) => void) | undefined = undefined;
  backoffWait: { timer: ReturnType<typeof setTimeout>; done: () => void } | undefined = undefined;
  /** Attempts conclude the call themselves (no `after` hooks to run first). */
  concludeInline = true;
  /** The deadline of the running hook phase (hooks count against the call's timeout). */
  phaseDeadline: Deadline | undefined = undefined;
  /** The hook running now, for the timeout message. */
  phaseHook: string | undefined = undefined;
  /** When the before-hooks started (ms), so the first attempt gets what remains of the timeout. */
  hooksStartedAt = -1;

  constructor(
    readonly core: ExecutorCore,
    readonly view: AvailabilityView,
    readonly call: ToolCall,
    readonly options: CallOptions,
    /** How to run the call again as requested (hooks such as approval keep it); set when hooks exist. */
    readonly origin?: CallOrigin,
    /** The entry the dispatcher resolved for this call, instead of looking the name up. */
    readonly routed?: RoutedEntry,
  ) {
    this.startedAt = core.events.observed ? Date.now() : -1;
  }

  /** The context chain of the call (created on first use). */
  resolver(): ChainResolver {
    return (this.chain ??= new ChainResolver(this, this.options, this.core));
  }

  /** The error a timed-out attempt's signal is aborted with. */
  timeoutReason(): unknown {
    const name = this.toolName();
    return new ToolkitError('TIMEOUT', `Tool '${name}' timed out after ${this.settings?.timeoutMs ?? 0} ms`, { tool: name });
  }

  toolName(): string {
    return this.entry !== undefined ? this.entry.name : String(this.call.name);
  }

  /** The tool's name as error texts quote it (an unknown name is the model's input: bounded). */
  quotedName(): string {
    return this.entry !== undefined ? `'${this.entry.name}'` : quoteInput(String(this.call.name));
  }

  /**
   * What redacts this call's output: the values its presets resolved to, and every value its tool
   * is known to use (so that output made before the presets resolve is redacted too).
   * `undefined` for tools without presets.
   */
  redaction(): Scrub | undefined {
    const entry = this.entry;
    if (entry === undefined || entry.presets === undefined) return undefined;
    return presetSecretsOf(entry).scrub(this.secrets);
  }

  /**
   * `describeThrown` of a redacted copy (its JSON text then holds no secret in any escaping),
   * redacted again before the cut, so no part of a secret is left at the cut.
   */
  describe(thrown: unknown): string {
    const scrub = this.redaction();
    return scrub ? describeThrown(redactDeep(thrown, scrub), scrub) : describeThrown(thrown);
  }

  abstract progress(progress: ToolProgress, attempt: number): void;
  abstract attemptEnded(): ToolResult | Promise<ToolResult>;
  abstract asyncCompletion(): AsyncCompletion;
  abstract deliverAsync(value: unknown, failed: boolean): boolean;
  abstract onCallerAbort(): void;
  /** The deadline of a hook phase passed. */
  abstract onDeadline(): void;
}
