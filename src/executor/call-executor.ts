import type { ClientRequestHandler, ClientRequests } from '../common/client-requests';
import type { ToolLogEntry } from '../common/tool-emitter';
import type { ToolCall, ToolProgress, ToolResult } from '../common/tool-types';
import type { ToolkitErrorCode } from '../errors';
import { describeAbort, unwatchAbort, watchAbort } from './abort-watch';
import { completionOf, deliverAsync } from './async-calls';
import type { AsyncCompletion } from './async-completion';
import type { Attempt } from './attempt';
import { attemptEnded, cancelBackoff, runAttempts, settingsFor } from './call-attempts';
import { authorizeCall, scopeGate } from './call-authorize';
import { abortCall, concludeSafely, fail, gateRefusal, internalFailure, unknownTool } from './call-end';
import { emitStarted, reportLog, reportProgress } from './call-events';
import { errorAnswer } from './call-shape';
import { hookPhaseTimedOut, runWithHooks } from './call-hooks';
import { End, redaction, resolverOf, timeoutError, type AsyncTrack, type CallState } from './call-state';
import { redactDeep } from './redact';
import { argumentProblems, invalidArguments, malformedArguments, parseArguments } from './call-validate';
import { repairArguments, repairs } from './call-repair';
import { MalformedArguments } from '../common/call-arguments';
import type { ChainResolver } from './chain-resolver';
import type { Deadline } from './deadlines';
import type { ResolvedExecution } from './execution-settings';
import type { AvailabilityView, CallOptions, ExecutorCore, RoutedEntry } from './executor-core';
import type { CallOrigin } from './hooks';
import type { WorkerAttempt } from './remote-types';
import type { RepairChange } from '../common/repair-types';
import type { ToolEntry } from './tool-entry';
import { prepareStandard } from './standard-values';
import { prepareDtos, ProblemList } from './validation';

export type { ResolvedExecution } from './execution-settings';
export type { AvailabilityView, CallLog, CallOptions, CallProgress, ExecutorCore } from './executor-core';

/**
 * Runs one call from the model's raw arguments to a {@link ToolResult}, as a straight pipeline of
 * steps — modules of free functions over the call's state ({@link CallState}, this object):
 *
 * gate (here: the entry, the caller's signal, the one availability gate, the scopes) → validate
 * (`call-validate`: parse, `null` → absent, schema, no preset parameter; after a failure, a safe
 * repair when the tool's `repair` is on: `call-repair`; then DTOs) → the
 * `authorize` rule (`call-authorize`) → `before`
 * hooks (`call-hooks`, under the call's timeout) → presets (`call-presets`) → attempts
 * (`call-attempts`: timeout, retry, backoff) → shape (`call-shape`: convert, redact, truncate) →
 * `after` hooks → end (`call-end`: the one place a call ends) → async completion (`async-calls`).
 * Events along the way: `call-events`.
 *
 * Never rejects: every fault becomes an error result with a message a model can act on.
 * Synchronous tools without hooks or DTOs run without a single `await`.
 *
 * @internal Use `toolkit.callTool()`.
 */
export class CallRun implements CallState {
  startedAt: number;
  entry: ToolEntry | undefined = undefined;
  args: Record<string, unknown> | undefined = undefined;
  settings: ResolvedExecution | undefined = undefined;
  secrets: Set<string> | undefined = undefined;
  chain: ChainResolver | undefined = undefined;
  attempts = 0;
  current: Attempt | undefined = undefined;
  done = false;
  final: ToolResult | undefined = undefined;
  endKind = End.Normal;
  failure: { abortText: string; cause?: unknown } | undefined = undefined;
  asyncTrack: AsyncTrack | undefined = undefined;
  resolveEarly: ((result: ToolResult) => void) | undefined = undefined;
  backoffWait: { timer: ReturnType<typeof setTimeout>; done: () => void } | undefined = undefined;
  concludeInline = true;
  phaseDeadline: Deadline | undefined = undefined;
  phaseHook: string | undefined = undefined;
  hooksStartedAt = -1;
  started = false;
  hookClient: ClientRequests | undefined = undefined;
  hookAbort: AbortController | undefined = undefined;
  approvalRequired = false;
  repairs: readonly RepairChange[] | undefined = undefined;

  constructor(
    readonly core: ExecutorCore,
    readonly view: AvailabilityView,
    readonly call: ToolCall,
    readonly options: CallOptions,
    /** What the dispatcher resolved the name to (`undefined`: no tool has it); the executor looks nothing up. */
    readonly routed: RoutedEntry | undefined,
    readonly origin?: CallOrigin,
    /** Set when a worker runs the call for a queued job (see {@link WorkerAttempt}). */
    readonly handoff: WorkerAttempt | undefined = undefined,
  ) {
    this.startedAt = core.events.observed ? Date.now() : -1;
  }

  /** Runs the call; resolves with its result (never rejects). */
  run(): Promise<ToolResult> {
    let produced: ToolResult | Promise<ToolResult>;
    try {
      produced = this.start();
    } catch (error) {
      return Promise.resolve(internalFailure(this, error));
    }
    if (!(produced instanceof Promise)) return Promise.resolve(produced);
    if (this.startedAt < 0) this.startedAt = Date.now();
    const signal = this.options.signal;
    // Every asynchronous path below resolves (never rejects): the result can go out as it is,
    // unless something may answer the call before it settles (the caller's abort, a hook's deadline).
    if (signal === undefined && this.concludeInline) return produced;
    if (this.done) return Promise.resolve(this.final!);
    const pending = produced;
    return new Promise<ToolResult>((resolve) => {
      this.resolveEarly = resolve;
      if (signal !== undefined) watchAbort(signal, this);
      pending.then(
        (result) => {
          if (signal !== undefined) unwatchAbort(signal, this);
          resolve(result);
        },
        (error: unknown) => {
          if (signal !== undefined) unwatchAbort(signal, this);
          resolve(internalFailure(this, error));
        },
      );
      if (signal?.aborted) this.onCallerAbort();
    });
  }

  /**
   * Answers the call with an error without running any of it (a refusal made before the call
   * would start: a closed session, a skill run's cap, the tool loop's budget): the call still
   * gets its one `call_started` (what the model sent, redacted, as for any rejected call) and its
   * one terminal event, on the same `events$`. Resolves with the error result.
   */
  refuse(code: ToolkitErrorCode, message: string): Promise<ToolResult> {
    // the entry tells which sent values are preset parameters (hidden in call_started)
    if (this.routed !== undefined) this.entry = this.routed.entry;
    return Promise.resolve(concludeSafely(this, errorAnswer(this, code, message)));
  }

  /** Gate, then validation; DTO arguments wait for class-validator. */
  private start(): ToolResult | Promise<ToolResult> {
    const routed = this.routed;
    if (routed !== undefined) this.entry = routed.entry;
    const signal = this.options.signal;
    if (signal !== undefined && signal.aborted) return abortCall(this, describeAbort(signal));
    if (routed === undefined) return unknownTool(this);
    const entry = routed.entry;
    // the one availability gate: of the view, or of a skill run's scope
    const refused = gateRefusal(this, routed.gate) ?? scopeGate(this, routed.gate === entry ? [entry.tool] : [routed.gate.tool, entry.tool]);
    if (refused !== undefined) return refused;
    const parsed = parseArguments(this, routed);
    const args = parsed instanceof MalformedArguments ? undefined : parsed;
    const problems = args !== undefined ? argumentProblems(this, entry, args) : undefined;
    if ((args === undefined || problems !== undefined) && repairs(this, entry)) {
      const repaired = repairArguments(this, entry, args);
      // a Standard Schema library or class-validator may still refuse repaired arguments: the call then answers what was sent
      const sent = args === undefined ? (parsed as MalformedArguments) : { args, problems: problems! };
      if (repaired !== undefined) return entry.dtos !== undefined || entry.standard !== undefined ? this.prepareRepaired(entry, repaired, sent) : this.proceed(entry, repaired);
    }
    if (args === undefined) return malformedArguments(this, entry, parsed as MalformedArguments);
    // one round: class-validator's problems join the schema's in the same answer
    if (entry.dtos !== undefined || entry.standard !== undefined) return this.prepare(entry, args, problems ?? new ProblemList()).catch((error: unknown) => internalFailure(this, error));
    if (problems !== undefined) return invalidArguments(this, entry, problems);
    return this.proceed(entry, args);
  }

  /** DTO arguments become instances of their classes, validated by class-validator; Standard Schema ones are validated by their library. */
  private async prepare(entry: ToolEntry, args: Record<string, unknown>, problems: ProblemList): Promise<ToolResult> {
    if (!(await this.validateInTime(entry, args, problems, false))) return validationTimedOut(this, entry);
    if (this.done) return this.final!;
    if (!problems.empty) return invalidArguments(this, entry, problems);
    return this.proceed(entry, args);
  }

  /** {@link prepare} for repaired arguments; when their library or class-validator refuses them, the answer is about what the model `sent`. */
  private async prepareRepaired(entry: ToolEntry, args: Record<string, unknown>, sent: MalformedArguments | { args: Record<string, unknown>; problems: ProblemList }): Promise<ToolResult> {
    try {
      const problems = new ProblemList();
      if (!(await this.validateInTime(entry, args, problems, true))) return validationTimedOut(this, entry);
      if (this.done) return this.final!;
      if (problems.empty) return await this.proceed(entry, args);
      this.repairs = undefined;
      return sent instanceof MalformedArguments ? malformedArguments(this, entry, sent) : await this.prepare(entry, sent.args, sent.problems);
    } catch (error) {
      return internalFailure(this, error);
    }
  }

  /**
   * The asynchronous checks of `args` (the Standard Schema libraries', then class-validator's; after
   * the library only when it found nothing, with `libraryFirst`) within the tool's `timeoutMs`:
   * a validator that never answers cannot hold the call. False when the time ran out.
   */
  private async validateInTime(entry: ToolEntry, args: Record<string, unknown>, problems: ProblemList, libraryFirst: boolean): Promise<boolean> {
    const checks = (async () => {
      if (entry.standard !== undefined) await prepareStandard(args, entry.standard, problems, redaction(this));
      if (entry.dtos !== undefined && (!libraryFirst || problems.empty)) await prepareDtos(args, entry.dtos, problems, redaction(this));
      return true;
    })();
    const { timeoutMs } = settingsFor(this.core, entry);
    if (timeoutMs <= 0) return checks;
    checks.catch(() => undefined); // a validator failing after the time ran out: the call has ended already
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
    try {
      return await Promise.race([checks, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The `authorize` rule, then the hooks (when the toolkit has any) around the attempts. */
  private proceed(entry: ToolEntry, args: Record<string, unknown>): ToolResult | Promise<ToolResult> {
    const refused = authorizeCall(this, entry.tool, args);
    if (refused === undefined) return this.authorized(entry, args);
    if (!(refused instanceof Promise)) return refused;
    return refused.then((answer) => answer ?? this.authorized(entry, args)).catch((error: unknown) => internalFailure(this, error));
  }

  /** The hooks (when the toolkit has any) around the attempts. */
  private authorized(entry: ToolEntry, args: Record<string, unknown>): ToolResult | Promise<ToolResult> {
    this.args = args;
    this.settings = settingsFor(this.core, entry);
    // hooks run where the call is made: a worker's job already went through its caller's
    if (this.core.hooks.length > 0 && this.handoff === undefined) {
      this.concludeInline = false;
      return runWithHooks(this, entry).catch((error: unknown) => internalFailure(this, error));
    }
    emitStarted(this, args);
    return runAttempts(this, entry);
  }

  /** Answers `run()`'s caller now, before the pipeline settles. */
  private answerEarly(result: ToolResult): void {
    const resolve = this.resolveEarly;
    this.resolveEarly = undefined;
    resolve?.(result);
  }

  // ------------------------------------------------------------------ CallLink, DeadlineTarget

  /** @internal The deadline of a hook phase passed: the call answers `TIMEOUT` at once, whatever the hook does later. */
  onDeadline(): void {
    const result = hookPhaseTimedOut(this);
    if (result === undefined) return;
    this.hookAbort?.abort(timeoutError(this));
    this.answerEarly(result);
  }

  /** @internal The caller's signal aborted while the call was pending. */
  onCallerAbort(): void {
    const signal = this.options.signal!;
    unwatchAbort(signal, this);
    if (this.done) return;
    const attempt = this.current;
    // Conclude first: the attempt's end (and the tool's abort listeners) then find the call answered.
    const result = abortCall(this, describeAbort(signal));
    cancelBackoff(this);
    this.hookAbort?.abort(signal.reason);
    attempt?.abortByCaller(signal.reason);
    this.answerEarly(result);
  }

  /** @internal */
  resolver(): ChainResolver {
    return resolverOf(this);
  }

  /** @internal */
  timeoutReason(): unknown {
    return timeoutError(this);
  }

  /** @internal */
  attemptEnded(): ToolResult | Promise<ToolResult> {
    return attemptEnded(this);
  }

  /** @internal */
  progress(progress: ToolProgress, attempt: number): void {
    reportProgress(this, progress, attempt);
  }

  /** @internal */
  log(entry: ToolLogEntry, attempt: number): void {
    reportLog(this, entry, attempt);
  }

  /** @internal */
  clientHandler(): ClientRequestHandler | undefined {
    return this.options.client ?? this.core.clientRequests;
  }

  /** @internal */
  outgoing(request: unknown): unknown {
    const scrub = redaction(this);
    return scrub ? redactDeep(request, scrub) : request;
  }

  /** @internal */
  asyncCompletion(): AsyncCompletion {
    return completionOf(this);
  }

  /** @internal */
  deliverAsync(value: unknown, failed: boolean): boolean {
    return deliverAsync(this, value, failed);
  }
}

/** Ends a call whose asynchronous argument checks outlasted the tool's `timeoutMs`: the tool never ran. */
function validationTimedOut(run: CallRun, entry: ToolEntry): ToolResult {
  const { timeoutMs } = settingsFor(run.core, entry);
  return fail(run, 'TIMEOUT', `Tool '${entry.name}' timed out after ${timeoutMs} ms while its arguments were validated; the tool did not run.`);
}
