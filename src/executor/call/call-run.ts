import { MalformedArguments } from '../../model/call-arguments';
import { isAsyncTool } from '../../model/agent-tool';
import type { RepairChange } from '../../model/repair-types';
import type { ToolCall, ToolResult } from '../../model/tool-types';
import type { ToolkitErrorCode } from '../../errors';
import { describeAbort } from './abort-watch';
import { asyncToolKey, AsyncTrack } from '../async/async-calls';
import { Attempt, AttemptPhase } from './attempt';
import { attemptMissed, Backoff, budgetOf, duplicateCall, endInline, settingsFor } from './call-attempts';
import { authorizeCall, gate, gateAgain, type Authorization } from './call-authorize';
import { checkArguments, CheckedArguments, checkLater } from './call-check';
import { aborted, internalFault, Stop } from './call-end';
import { CallCallbacks } from './call-callbacks';
import { emitStarted, emitTerminal, emitUnstarted } from './emit-events';
import { afterHooks, Answered, beforeHook, HookPhase, hookTimedOut } from './run-hooks';
import { invokeTarget, resolvePresets, type PresetArguments } from './call-presets';
import { errorAnswer, shapeResult, successOf } from './call-shape';
import { End, timeoutError, type CallFailure, type CallState } from './call-state';
import { invalidArguments, malformedArguments } from './call-validate';
import type { ChainResolver } from '../chain-resolver';
import { isPending } from './convert';
import { EarlyAnswer, type AnswersEarly } from './early-answer';
import type { ResolvedExecution } from '../execution-settings';
import type { AvailabilityGate, CallOptions, ExecutorParts, RoutedEntry, UnknownName } from '../executor-parts';
import type { CallOrigin } from '../hook-types';
import { runRemote, singleAttempt } from '../remote/remote-call';
import type { WorkerAttempt } from '../remote/remote-types';
import type { ToolEntry } from '../tool-entry';

/**
 * One call, from the model's raw arguments to a {@link ToolResult}, on a path that reads top to
 * bottom: gate → parse, (repair), validate → the `authorize` rule → `before` hooks → presets →
 * attempts (timeout, retry, backoff) → shape → `after` hooks → end. The run is the one writer of
 * the call's state ({@link CallState}: this object) and the one place a call ends ({@link conclude});
 * the steps (`call-*.ts`) read the state and return what they found: arguments, a result, a {@link Stop}.
 *
 * Never rejects: every fault becomes an error result with a message a model can act on.
 * Synchronous tools without hooks or DTOs run without a single `await`.
 */
export class CallRun extends CallCallbacks implements CallState, AnswersEarly {
  startedAt: number;
  entry: ToolEntry | undefined = undefined;
  args: Record<string, unknown> | undefined = undefined;
  settings: ResolvedExecution | undefined = undefined;
  secrets: Set<string> | undefined = undefined;
  attempts = 0;
  done = false;
  final: ToolResult | undefined = undefined;
  endKind = End.Normal;
  failure: CallFailure | undefined = undefined;
  hooksStartedAt = -1;
  approvalRequired = false;
  repairs: readonly RepairChange[] | undefined = undefined;
  private current: Attempt | undefined = undefined;
  /** True once the call's one `call_started` is out (or was due while `events$` had no observer). */
  private started = false;
  /** Attempts conclude the call themselves (no `after` hooks to run first). */
  private concludeInline = true;
  protected override chain: ChainResolver | undefined = undefined;
  protected override asyncTrack: AsyncTrack | undefined = undefined;
  protected override hooks: HookPhase | undefined = undefined;
  private early: EarlyAnswer | undefined = undefined;
  private backoffWait: Backoff | undefined = undefined;

  constructor(
    readonly parts: ExecutorParts,
    readonly availability: AvailabilityGate,
    readonly call: ToolCall,
    readonly options: CallOptions,
    readonly routed: RoutedEntry | UnknownName,
    readonly origin: CallOrigin | undefined,
    readonly handoff: WorkerAttempt | undefined,
  ) {
    super();
    this.startedAt = parts.events.observed ? Date.now() : -1;
  }

  /** Runs the call; resolves with its result (never rejects). */
  run(): Promise<ToolResult> {
    let produced: ToolResult | Promise<ToolResult>;
    try {
      produced = this.start();
    } catch (error) {
      return Promise.resolve(this.fault(error));
    }
    if (!(produced instanceof Promise)) return Promise.resolve(produced);
    if (this.startedAt < 0) this.startedAt = Date.now();
    const signal = this.options.signal;
    // it resolves (never rejects): it goes out as it is unless something may answer first (the caller's abort, a hook's deadline)
    if (signal === undefined && this.concludeInline) return produced;
    if (this.done) return Promise.resolve(this.final!);
    return (this.early = new EarlyAnswer(this, produced, signal)).promise;
  }

  /** Answers with an error and runs nothing: see {@link refuseCall}. */
  refuse(code: ToolkitErrorCode, message: string): Promise<ToolResult> {
    // the entry tells which sent values are preset parameters (hidden in call_started)
    this.entry = this.routed.entry;
    return Promise.resolve(this.concludeSafely(errorAnswer(this, code, message)));
  }

  /** Gate, then the arguments (parsed, repaired, validated). */
  private start(): ToolResult | Promise<ToolResult> {
    const routed = this.routed;
    this.entry = routed.entry;
    const refused = gate(this);
    if (refused !== undefined || routed.entry === undefined) return this.end(refused!);
    const entry = routed.entry;
    const checked = checkArguments(this, routed);
    if (checked instanceof Stop) return this.end(checked);
    if (!(checked instanceof CheckedArguments)) return this.authorize(entry, checked);
    this.repairs = checked.repairs;
    return checked.problems === undefined ? this.authorize(entry, checked.args) : this.awaitChecks(entry, checked);
  }

  /** The checks that wait (class-validator, Standard Schema libraries); repaired arguments they refuse are answered as the model sent them. */
  private async awaitChecks(entry: ToolEntry, checked: CheckedArguments): Promise<ToolResult> {
    try {
      const passed = await checkLater(this, entry, checked);
      if (this.done) return this.final!;
      if (passed === true) return await this.authorize(entry, checked.args);
      const sent = checked.sent;
      if (passed instanceof Stop || sent === undefined) return this.end(passed instanceof Stop ? passed : invalidArguments(entry, checked.problems!));
      this.repairs = undefined;
      return sent instanceof MalformedArguments ? this.end(malformedArguments(entry, sent)) : await this.awaitChecks(entry, sent);
    } catch (error) {
      return this.fault(error);
    }
  }

  /** The `authorize` rule. */
  private authorize(entry: ToolEntry, args: Record<string, unknown>): ToolResult | Promise<ToolResult> {
    const verdict = authorizeCall(this, entry.tool, args);
    if (!(verdict instanceof Promise)) return this.authorized(entry, args, verdict);
    return verdict.then((decided) => (this.done ? this.final! : this.authorized(entry, args, decided))).catch((error: unknown) => this.fault(error));
  }

  /** The hooks (when the toolkit has any) around the attempts. */
  private authorized(entry: ToolEntry, args: Record<string, unknown>, verdict: Authorization): ToolResult | Promise<ToolResult> {
    if (verdict instanceof Stop) return this.end(verdict);
    if (verdict === 'approval') this.approvalRequired = true;
    this.args = args;
    this.settings = settingsFor(this.parts, entry);
    // hooks run where the call is made: a worker's job already went through its caller's
    if (this.parts.hooks.length > 0 && this.handoff === undefined) {
      this.concludeInline = false;
      return this.withHooks(entry).catch((error: unknown) => this.fault(error));
    }
    this.markStarted();
    return this.runAttempts(entry);
  }

  /**
   * The `before` hooks (which may deny the call, answer it, or rewrite its arguments), the
   * attempts, then the `after` hooks (which may replace the result). Each hook phase counts
   * against the call's timeout: {@link onDeadline} answers the call when it passes.
   */
  private async withHooks(entry: ToolEntry): Promise<ToolResult> {
    const hooks = this.parts.hooks;
    const phase = (this.hooks = new HookPhase());
    const timeoutMs = this.settings!.timeoutMs;
    if (timeoutMs > 0) this.hooksStartedAt = Date.now();
    const stopped = await phase.within(this.parts.deadlines, timeoutMs, this, async () => {
      for (const hook of hooks) {
        if (!hook.before) continue;
        phase.enter(hook.name);
        const outcome = await beforeHook(this, entry, hook);
        if (outcome instanceof Stop) return this.end(outcome);
        if (this.done) return this.final!;
        if (outcome instanceof Answered) return this.conclude(shapeResult(this, entry, outcome.result));
        if (outcome !== undefined) this.args = outcome;
      }
      return undefined;
    });
    if (stopped !== undefined) return stopped;
    const refused = gateAgain(this);
    if (refused !== undefined) return this.end(refused);
    this.markStarted();
    // a caller that aborted as the call started (an observer of call_started) gets no body run
    if (this.done) return this.final!;
    const result = await this.runAttempts(entry);
    if (this.done) return this.final!;
    const after = await phase.within(this.parts.deadlines, timeoutMs, this, () => afterHooks(this, entry, phase, result));
    return after instanceof Stop ? this.end(after) : this.conclude(after);
  }

  /** Runs the tool (here, or through its route elsewhere; a worker's job here): attempt after attempt until one answers or the retries run out. */
  private runAttempts(entry: ToolEntry): ToolResult | Promise<ToolResult> {
    const runner = this.handoff === undefined ? this.parts.runnerFor(entry) : undefined;
    if (runner !== undefined) {
      const settings = this.settings!;
      const budget = budgetOf(this, 1);
      this.settings = singleAttempt(settings);
      return runRemote(this, entry, runner, budget, this.begin(entry, 1, -1), settings.maxAttempts);
    }
    if (isAsyncTool(entry.target)) {
      const key = asyncToolKey(this, entry);
      if (key === undefined) return this.end(duplicateCall(this));
      (this.asyncTrack ??= new AsyncTrack()).listen(this, key);
    }
    return this.attempt(entry, this.handoff?.attempt ?? 1, -1);
  }

  /** Attempt `n`: synchronous while the tool is; a pending answer is waited for under the attempt's timeout. */
  private attempt(entry: ToolEntry, n: number, startedAt: number): ToolResult | Promise<ToolResult> {
    const attempt = this.begin(entry, n, startedAt);
    const budget = budgetOf(this, n);
    const invokedAt = budget > 0 ? Date.now() : 0;
    let value: unknown;
    try {
      value = entry.presets === undefined ? invokeTarget(this, entry, this.args!, attempt) : this.withPresets(entry, attempt);
    } catch (error) {
      endInline(attempt, AttemptPhase.Threw, error, budget, invokedAt);
      return this.attemptEnded();
    }
    if (isPending(value)) return attempt.wait(value, budget, this.parts.deadlines);
    endInline(attempt, AttemptPhase.Succeeded, value, budget, invokedAt);
    return this.attemptEnded();
  }

  private begin(entry: ToolEntry, n: number, startedAt: number): Attempt {
    const attempt = new Attempt(this, this.call.id, entry.name, n, this.options.sessionId, startedAt);
    this.current = attempt;
    this.attempts = n;
    return attempt;
  }

  /** The tool with its presets (resolving them counts against the attempt's timeout: a timed-out or aborted attempt never reaches the tool). */
  private withPresets(entry: ToolEntry, attempt: Attempt): unknown {
    const invoke = ({ args, secrets }: PresetArguments): unknown => {
      if (secrets !== undefined) this.secrets = this.secrets === undefined ? secrets : new Set([...this.secrets, ...secrets]);
      return attempt.live ? invokeTarget(this, entry, args, attempt) : undefined;
    };
    const presets = resolvePresets(this, entry, attempt);
    return presets instanceof Promise ? presets.then(invoke) : invoke(presets);
  }

  /** Where the call's current attempt ends up: its answer (shaped), a retry, or a failure. */
  private afterAttempt(): ToolResult | Promise<ToolResult> {
    if (this.done) return this.final!;
    // a call that is not done is at its current attempt: the next starts only after this one ended
    const attempt = this.current!;
    const entry = this.entry!;
    if (attempt.phase === AttemptPhase.Succeeded) return successOf(this, entry, attempt.value);
    const outcome = attemptMissed(this, entry, attempt);
    if (outcome instanceof Stop) return outcome.kind === End.Aborted ? this.end(outcome) : this.answer(outcome);
    if (this.handoff !== undefined) {
      // the queue runs the next attempt (on any worker) once the backoff is over
      this.handoff.retryDelayMs = outcome.delayMs;
      return this.answer(outcome.stop);
    }
    return (this.backoffWait = new Backoff(outcome.delayMs)).over.then(() => {
      if (this.done) return this.final!;
      try {
        return this.attempt(entry, attempt.attempt + 1, Date.now());
      } catch (thrown) {
        return this.fault(thrown);
      }
    });
  }

  /**
   * The one place a call ends: records the answer, emits the terminal event (after the call's
   * `call_started`, emitted now for a call that ends before its first attempt), settles async
   * completion. Every later answer is the first one.
   */
  private conclude(result: ToolResult): ToolResult {
    if (this.done) return this.final!;
    this.done = true;
    this.final = result;
    this.current = undefined;
    if (this.parts.events.observed) {
      if (!this.started) {
        this.started = true;
        emitUnstarted(this);
      }
      emitTerminal(this, result);
    }
    this.asyncTrack?.settle(this, result);
    return result;
  }

  /** {@link conclude} where a throw (a caller's callback) must not turn into a rejection. */
  private concludeSafely(result: ToolResult): ToolResult {
    try {
      return this.conclude(result);
    } catch (error) {
      return this.fault(error);
    }
  }

  /** Records how `stop` ends the call (its terminal event, its failure) and makes its error answer. */
  private answer(stop: Stop): ToolResult {
    if (stop.kind !== End.Normal) this.endKind = stop.kind;
    if (stop.failure !== undefined) this.failure = stop.failure;
    return errorAnswer(this, stop.code, stop.message);
  }

  /** Ends the call with `stop` (unless it has ended already). */
  private end(stop: Stop): ToolResult {
    return this.done ? this.final! : this.conclude(this.answer(stop));
  }

  /** @internal Ends the call on a fault of the pipeline itself (or a callback that threw into it). */
  fault(error: unknown): ToolResult {
    return this.end(internalFault(this, error));
  }

  /** `call_started`, once. */
  private markStarted(): void {
    if (this.started) return;
    this.started = true;
    emitStarted(this, this.args!);
  }

  /** @internal The deadline of a hook phase passed: the call answers `TIMEOUT` at once, whatever the hook does later. */
  onDeadline(): void {
    const phase = this.hooks!;
    phase.expired();
    if (this.done) return;
    const result = this.end(hookTimedOut(this, phase.hook));
    phase.abort(timeoutError(this));
    this.early?.answer(result);
  }

  /** @internal The caller's signal aborted while the call was pending. */
  callerAborted(): ToolResult | undefined {
    if (this.done) return undefined;
    const signal = this.options.signal!;
    const attempt = this.current;
    // Conclude first: the attempt's end (and the tool's abort listeners) then find the call answered.
    const result = this.end(aborted(this, describeAbort(signal)));
    this.backoffWait?.cancel();
    this.hooks?.abort(signal.reason);
    attempt?.abortByCaller(signal.reason);
    return result;
  }

  /** @internal What the call does once its current attempt ended (never throws). */
  attemptEnded(): ToolResult | Promise<ToolResult> {
    try {
      const result = this.afterAttempt();
      if (!this.concludeInline) return result;
      return result instanceof Promise ? result.then((r) => this.concludeSafely(r)) : this.conclude(result);
    } catch (error) {
      return this.fault(error);
    }
  }
}
