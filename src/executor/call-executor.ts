import type { Container } from 'inversify';
import type { ContextualTool } from '../common/agent-tool';
import { callSafely } from '../common/guarded-observable';
import { isAsyncTool } from '../common/agent-tool';
import { errorResult } from '../common/results';
import { boundInput, quoteInput } from '../common/quote-input';
import { MalformedArguments, parseCallArguments } from '../common/call-arguments';
import type { ToolCall, ToolProgress, ToolResult } from '../common/tool-types';
import { describeThrown, ToolkitError, type ToolkitErrorCode } from '../errors';
import type { CallFailedEvent, ToolCallEventBase } from './events';
import { CALL_ORIGIN, type BeforeHookDecision, type CallOrigin, type HookContext, type ToolHook } from './hooks';
import { isContainerPreset } from './presets';
import type { ToolEntry } from './tool-entry';
import { describeAbort, unwatchAbort, watchAbort, type AbortWatcher } from './abort-watch';
import { AsyncCompletion, type AsyncSink } from './async-completion';
import { Attempt, AttemptState, type AttemptHost } from './attempt';
import { isPending, isThenable, toToolResult, truncateText } from './convert';
import type { Deadline, DeadlineScheduler } from './deadlines';
import { backoffDelay, resolveExecution, type ResolvedExecution } from './execution-settings';
import { answerFor, asyncKey } from './async-calls';
import { ChainResolver } from './chain-resolver';
import { closeNames } from './close-names';
import type { AvailabilityView, CallOptions, ExecutorCore, RoutedEntry } from './executor-core';
import { presetSecretsOf, type PresetSecrets } from './preset-secrets';
import { collectSecrets, redactDeep, redactedToolResult, redactResult, REDACTED, type Scrub } from './redact';
import { describeAjvErrors, prepareDtos, ProblemList } from './validation';

export type { ResolvedExecution } from './execution-settings';
export type { AvailabilityView, CallOptions, CallProgress, ExecutorCore } from './executor-core';

/** The longest model-sent tool name or call id an event carries (provider ids are far shorter). */
const MAX_EVENT_ID_CHARS = 256;
function safePredicate(predicate: (error: unknown, attempt: number) => boolean, error: unknown, attempt: number): boolean {
  try {
    return predicate(error, attempt) === true;
  } catch {
    return false;
  }
}

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** True when the model sent a value for one of the tool's (hidden) preset parameters. */
function namesPreset(args: Record<string, unknown>, presets: NonNullable<ToolEntry['presets']>): boolean {
  for (const { name } of presets) if (hasOwn(args, name)) return true;
  return false;
}

/** True when a parsed argument object holds a `null` or a nested value (where a `null` may hide). */
function mayHoldNull(args: Record<string, unknown>): boolean {
  for (const key in args) {
    const value = args[key];
    if (value === null || typeof value === 'object') return true;
  }
  return false;
}

/** Per-entry merged settings (only for tools with their own `timeoutMs` / `retry`). */
const settingsCache = new WeakMap<ToolEntry, ResolvedExecution>();

const enum End {
  Normal = 0,
  TimedOut = 1,
  Aborted = 2,
}

/** Where a call that may complete in the background stands. */
interface AsyncTrack {
  state: AsyncState;
  /** A completion that arrived before the call answered. */
  early?: { value: unknown; failed: boolean };
  handle?: AsyncCompletion;
  /** The call's key in `asyncListeners` (AsyncTool calls). */
  toolKey?: string;
}

const enum AsyncState {
  /** The call cannot complete asynchronously (no AsyncTool, no AsyncCompletion handed out). */
  Untracked = 0,
  /** It may: waiting for the call's own answer. */
  Pending = 1,
  /** The call answered with an async result: waiting for the completion. */
  Armed = 2,
  /** Completed, or the answer was not async. */
  Closed = 3,
}

/**
 * Runs one call from the model's raw arguments to a {@link ToolResult}: parse, `null` → absent,
 * validation, DTO transform, hooks, presets, then attempts (each with its own lazily created
 * `AbortController` and a timeout on the shared {@link DeadlineScheduler}) with retries, progress,
 * and events. Never rejects: every fault becomes an error result with a message a model can act
 * on. Synchronous tools without hooks or DTOs run without a single `await`.
 *
 * @internal Use `toolkit.callTool()`.
 */
export class CallRun implements AttemptHost, AsyncSink, AbortWatcher {
  /**
   * When the call started, or -1 until a clock reading is needed: reading the clock costs as much
   * as a tenth of a synchronous call on some VMs, so it is read at the start only when `events$`
   * is observed, and otherwise when the call first goes asynchronous (a call that answers in the
   * same tick lasts 0 ms to the precision reported).
   */
  private startedAt: number;
  private entry: ToolEntry | undefined = undefined;
  private args: Record<string, unknown> | undefined = undefined;
  private settings: ResolvedExecution | undefined = undefined;
  /** What this call's presets resolved to (the texts to redact). */
  private secrets: Set<string> | undefined = undefined;
  private chain: ChainResolver | undefined = undefined;
  private attempts = 0;
  private current: Attempt | undefined = undefined;
  private done = false;
  private final: ToolResult | undefined = undefined;
  private endKind = End.Normal;
  /** How the call failed, beyond its result (kept apart: most calls never need it). */
  private failure: { abortText: string; cause?: unknown } | undefined = undefined;
  /** Async completion state, for calls that may complete in the background. */
  private asyncTrack: AsyncTrack | undefined = undefined;
  private resolveEarly: ((result: ToolResult) => void) | undefined = undefined;
  private backoffWait: { timer: ReturnType<typeof setTimeout>; done: () => void } | undefined = undefined;
  /** Attempts conclude the call themselves (no `after` hooks to run first). */
  private concludeInline = true;
  /** The deadline of the running hook phase (hooks count against the call's timeout). */
  private phaseDeadline: Deadline | undefined = undefined;
  /** The hook running now, for the timeout message. */
  private phaseHook: string | undefined = undefined;
  /** When the before-hooks started (ms), so the first attempt gets what remains of the timeout. */
  private hooksStartedAt = -1;

  constructor(
    private readonly core: ExecutorCore,
    private readonly view: AvailabilityView,
    private readonly call: ToolCall,
    private readonly options: CallOptions,
    /** How to run the call again as requested (hooks such as approval keep it); set when hooks exist. */
    private readonly origin?: CallOrigin,
    /** The entry the dispatcher resolved for this call, instead of looking the name up. */
    private readonly routed?: RoutedEntry,
  ) {
    this.startedAt = core.events.observed ? Date.now() : -1;
  }

  /** Runs the call; resolves with its result (never rejects). */
  run(): Promise<ToolResult> {
    let produced: ToolResult | Promise<ToolResult>;
    try {
      produced = this.start();
    } catch (error) {
      return Promise.resolve(this.internalFailure(error));
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
          resolve(this.internalFailure(error));
        },
      );
      if (signal?.aborted) this.onCallerAbort();
    });
  }

  /** @internal The deadline of a hook phase passed: the call answers `TIMEOUT` at once, whatever the hook does later. */
  onDeadline(): void {
    this.phaseDeadline = undefined;
    if (this.done) return;
    this.endKind = End.TimedOut;
    const hook = this.phaseHook;
    const result = this.conclude(
      this.errorAnswer(
        'TIMEOUT',
        `Tool ${this.quotedName()} timed out after ${this.settings?.timeoutMs ?? 0} ms` +
          `${hook !== undefined ? ` while hook '${hook}' was running` : ''}. Its work was cancelled; try again, or with a smaller request.`,
      ),
    );
    const resolve = this.resolveEarly;
    this.resolveEarly = undefined;
    resolve?.(result);
  }

  /** @internal The caller's signal aborted while the call was pending. */
  onCallerAbort(): void {
    const signal = this.options.signal!;
    unwatchAbort(signal, this);
    if (this.done) return;
    const attempt = this.current;
    // Conclude first: the attempt's end (and the tool's abort listeners) then find the call answered.
    const result = this.aborted(describeAbort(signal));
    this.cancelBackoff();
    attempt?.abortByCaller(signal.reason);
    const resolve = this.resolveEarly;
    this.resolveEarly = undefined;
    resolve?.(result);
  }

  // ------------------------------------------------------------------ before the tool runs

  private start(): ToolResult | Promise<ToolResult> {
    const routed = this.routed;
    const entry = routed !== undefined ? routed.entry : this.core.registry.get(this.call.name);
    if (entry !== undefined) this.entry = entry;
    const signal = this.options.signal;
    if (signal !== undefined && signal.aborted) return this.aborted(describeAbort(signal));
    if (entry === undefined) return this.unknownTool();
    // the one availability gate: of the view, or of a skill run's scope
    const gated = routed !== undefined ? routed.gate : entry;
    if (!this.view.isEnabled(gated)) return this.fail('TOOL_DISABLED', this.view.whyDisabled(gated));
    const args = this.parseArguments(entry);
    if (args === undefined) return this.final!;
    if (entry.dtos !== undefined) return this.prepare(entry, args).catch((error: unknown) => this.internalFailure(error));
    return this.proceed(entry, args);
  }

  private unknownTool(): ToolResult {
    const name = String(this.call.name);
    const enabled = this.view.enabledNames();
    const close = closeNames(name, enabled);
    return this.fail(
      'UNKNOWN_TOOL',
      `Unknown tool ${quoteInput(name)}.${close.length ? ` Did you mean ${close.map((c) => `'${c}'`).join(', ')}?` : ''}` +
        ` Available tools: ${enabled.slice(0, 20).join(', ') || '(none)'}.`,
    );
  }

  private parseArguments(entry: ToolEntry): Record<string, unknown> | undefined {
    const raw = this.call.arguments;
    const args = parseCallArguments(raw);
    if (args instanceof MalformedArguments) {
      const expected = args.invalidJson
        ? `. Send one JSON object with the parameters: ${Object.keys(entry.schema.properties).join(', ') || '(none)'}.`
        : '.';
      this.fail('MALFORMED_ARGUMENTS', `Arguments for tool '${entry.name}' ${args.reason}${expected}`);
      return undefined;
    }
    const strip = entry.stripNulls;
    // JSON text without `null` holds no null at any depth
    const object = strip !== undefined && (typeof raw === 'string' ? raw.includes('null') : mayHoldNull(args)) ? strip(args) : args;
    return this.validate(entry, object) ? object : undefined;
  }

  private validate(entry: ToolEntry, args: Record<string, unknown>): boolean {
    const validator = entry.validator ?? (entry.validator = this.core.ajv.compile(entry.schema));
    const valid = validator(args) as boolean;
    const presets = entry.presets;
    // the common case of a tool with presets: valid arguments that name none of them (nothing allocated)
    if (valid && (presets === undefined || !namesPreset(args, presets))) return true;
    const problems = new ProblemList();
    if (!valid) {
      // values are quoted cut short: redact them first, so that no part of a preset value stays at a cut
      const scrub = this.redaction();
      describeAjvErrors(validator.errors ?? [], scrub !== undefined ? (redactDeep(args, scrub) as Record<string, unknown>) : args, problems);
    }
    if (presets !== undefined) {
      for (const { name } of presets) {
        if (hasOwn(args, name)) problems.add(`'${name}': is not a parameter of this tool (remove it)`);
      }
    }
    if (problems.empty) return true;
    this.invalidArguments(entry, problems);
    return false;
  }

  private invalidArguments(entry: ToolEntry, problems: ProblemList): ToolResult {
    return this.fail('INVALID_ARGUMENTS', `Invalid arguments for tool '${entry.name}':\n${problems.toText()}\nFix these and call the tool again.`);
  }

  private async prepare(entry: ToolEntry, args: Record<string, unknown>): Promise<ToolResult> {
    const problems = new ProblemList();
    await prepareDtos(args, entry.dtos!, problems);
    if (this.done) return this.final!;
    if (!problems.empty) return this.invalidArguments(entry, problems);
    return this.proceed(entry, args);
  }

  private proceed(entry: ToolEntry, args: Record<string, unknown>): ToolResult | Promise<ToolResult> {
    this.args = args;
    this.settings = this.settingsFor(entry);
    if (this.core.hooks.length > 0) {
      this.concludeInline = false;
      return this.withHooks(entry).catch((error: unknown) => this.internalFailure(error));
    }
    this.emitStarted(args);
    return this.execute(entry);
  }

  private hookContext(entry: ToolEntry): HookContext {
    const context: { -readonly [K in keyof HookContext]: HookContext[K] } = { call: this.call, tool: entry.tool, arguments: this.args!, context: this.resolver() };
    if (this.options.sessionId !== undefined) context.sessionId = this.options.sessionId;
    if (this.origin !== undefined) context[CALL_ORIGIN] = this.origin;
    return context;
  }

  /** Starts a hook phase under the call's timeout (`onDeadline` answers the call when it passes). */
  private armPhase(): void {
    const timeoutMs = this.settings!.timeoutMs;
    if (timeoutMs > 0) this.phaseDeadline = this.core.deadlines.schedule(timeoutMs, this);
  }

  private endPhase(): void {
    this.phaseHook = undefined;
    const deadline = this.phaseDeadline;
    this.phaseDeadline = undefined;
    deadline?.cancel();
  }

  private async withHooks(entry: ToolEntry): Promise<ToolResult> {
    const hooks = this.core.hooks;
    if (this.settings!.timeoutMs > 0) this.hooksStartedAt = Date.now();
    this.armPhase();
    try {
      const stopped = await this.beforeHooks(entry, hooks);
      if (stopped !== undefined) return stopped;
    } finally {
      this.endPhase();
    }
    this.emitStarted(this.args!);
    let result = await this.execute(entry);
    if (this.done) return this.final!;
    this.armPhase();
    try {
      for (const hook of hooks) {
        if (!hook.after) continue;
        this.phaseHook = hook.name;
        try {
          const replacement = await hook.after(this.hookContext(entry), result);
          if (this.done) return this.final!;
          if (replacement) result = this.shape(entry, replacement);
        } catch (e) {
          return this.fail('HOOK_FAILED', `Hook '${hook.name}' failed after tool '${entry.name}': ${this.describe(e)}`, e);
        }
      }
    } finally {
      this.endPhase();
    }
    return this.conclude(result);
  }

  /** Runs the `before` hooks; returns the call's answer when one of them ended it. */
  private async beforeHooks(entry: ToolEntry, hooks: readonly ToolHook[]): Promise<ToolResult | undefined> {
    for (const hook of hooks) {
      if (!hook.before) continue;
      this.phaseHook = hook.name;
      let decision: BeforeHookDecision;
      try {
        decision = await hook.before(this.hookContext(entry));
      } catch (e) {
        return this.fail('HOOK_FAILED', `Tool '${entry.name}' was stopped by hook '${hook.name}': ${this.describe(e)}`, e);
      }
      if (this.done) return this.final!;
      if (!decision) continue;
      if (decision.action === 'deny') return this.fail('DENIED', `Tool '${entry.name}' was denied: ${decision.reason}`);
      if (decision.action === 'respond') return this.conclude(this.shape(entry, decision.result));
      if (decision.action === 'rewrite') {
        const own = { ...decision.arguments };
        const rewritten = entry.stripNulls !== undefined ? entry.stripNulls(own) : own;
        if (!this.validate(entry, rewritten)) return this.final!;
        this.args = rewritten;
      }
    }
    return undefined;
  }

  // ------------------------------------------------------------------ attempts

  private settingsFor(entry: ToolEntry): ResolvedExecution {
    const { timeoutMs, retry } = entry.behaviour;
    if (timeoutMs === undefined && retry === undefined) return this.core.defaults;
    let settings = settingsCache.get(entry);
    if (settings === undefined) {
      settings = resolveExecution(this.core.defaults, timeoutMs === undefined ? retry : { ...retry, timeoutMs });
      settingsCache.set(entry, settings);
    }
    return settings;
  }

  private execute(entry: ToolEntry): ToolResult | Promise<ToolResult> {
    if (isAsyncTool(entry.target)) {
      const key = asyncKey(entry.name, this.call.id);
      // an AsyncTool's completion names only the call id: two live calls with one id would get each other's
      const waiting = this.core.asyncListeners.get(key);
      if (waiting !== undefined && waiting !== this) {
        return this.fail(
          'DUPLICATE_CALL_ID',
          `Tool ${this.quotedName()} is still completing an earlier call with id ${quoteInput(this.call.id)} in the background; ` +
            'send this call with an id of its own.',
        );
      }
      const track = (this.asyncTrack ??= { state: AsyncState.Pending });
      track.toolKey = key;
      this.core.asyncListeners.set(key, this);
    }
    return this.runAttempt(entry, 1, -1);
  }

  private runAttempt(entry: ToolEntry, n: number, startedAt: number): ToolResult | Promise<ToolResult> {
    const attempt = new Attempt(this, this.call.id, entry.name, n, this.options.sessionId, startedAt);
    this.current = attempt;
    this.attempts = n;
    const budget = this.budgetOf(n);
    // a synchronous body cannot be interrupted: what it answers after its deadline is a timeout
    const invokedAt = budget > 0 ? Date.now() : 0;
    let value: unknown;
    try {
      value = entry.presets === undefined ? this.invokeTarget(entry, this.args!, attempt) : this.invokeWithPresets(entry, attempt);
    } catch (error) {
      if (budget > 0 && Date.now() - invokedAt >= budget) attempt.onDeadline();
      else attempt.end(AttemptState.Threw, error);
      return this.attemptEnded(attempt);
    }
    if (!isPending(value)) {
      if (budget > 0 && Date.now() - invokedAt >= budget) attempt.onDeadline();
      else attempt.end(AttemptState.Succeeded, value);
      return this.attemptEnded(attempt);
    }
    return attempt.wait(value, budget, this.core.deadlines);
  }

  /**
   * The timeout of attempt `n` in ms (0: none): the first attempt gets what the `before` hooks
   * left of the call's timeout (at least 1 ms); each retry gets the whole timeout.
   */
  private budgetOf(n: number): number {
    const timeoutMs = this.settings!.timeoutMs;
    if (timeoutMs === 0 || n > 1 || this.hooksStartedAt < 0) return timeoutMs;
    return Math.max(1, timeoutMs - (Date.now() - this.hooksStartedAt));
  }

  /** @internal Where every attempt ends up: the answer (concluded unless hooks come first), a retry, or a failure. */
  attemptEnded(attempt: Attempt): ToolResult | Promise<ToolResult> {
    try {
      const result = this.afterAttempt(this.entry!, attempt);
      if (!this.concludeInline) return result;
      return result instanceof Promise ? result.then((r) => this.concludeSafely(r)) : this.conclude(result);
    } catch (error) {
      return this.internalFailure(error);
    }
  }

  /** `conclude` where a throw (a caller's callback) must not turn into a rejection. */
  private concludeSafely(result: ToolResult): ToolResult {
    try {
      return this.conclude(result);
    } catch (error) {
      return this.internalFailure(error);
    }
  }

  private invokeTarget(entry: ToolEntry, args: Record<string, unknown>, attempt: Attempt): unknown {
    const target = entry.target;
    if (entry.contextual) (target as ContextualTool).setContext(this.resolver().merged(), attempt);
    return target.execute(args, attempt);
  }

  private invokeWithPresets(entry: ToolEntry, attempt: Attempt): unknown {
    const merged = this.resolvePresets(entry, attempt);
    if (!(merged instanceof Promise)) return this.invokeTarget(entry, merged, attempt);
    // Preset resolution (a secret store…) counts against the attempt's timeout; a timed-out or
    // aborted attempt never reaches the tool.
    return merged.then((full) => (attempt.live ? this.invokeTarget(entry, full, attempt) : undefined));
  }

  private resolvePresets(entry: ToolEntry, attempt: Attempt): Record<string, unknown> | Promise<Record<string, unknown>> {
    const merged = { ...this.args };
    const book = presetSecretsOf(entry);
    let pending: Promise<void>[] | undefined;
    for (const { name, value } of entry.presets!) {
      let resolved: unknown = value;
      if (typeof value === 'function') resolved = (value as (ctx: Attempt) => unknown)(attempt);
      else if (isContainerPreset(value)) resolved = this.core.container.get(value.token as Parameters<Container['get']>[0]);
      if (isThenable(resolved)) (pending ??= []).push(Promise.resolve(resolved).then((v) => this.setPreset(book, merged, name, v)));
      else this.setPreset(book, merged, name, resolved);
    }
    return pending === undefined ? merged : Promise.all(pending).then(() => merged);
  }

  private setPreset(book: PresetSecrets, target: Record<string, unknown>, name: string, value: unknown): void {
    target[name] = value;
    // A fixed preset's value is known already (the common case: one lookup).
    if (typeof value === 'string' && book.isFixed(value)) return;
    // Every shape counts: strings, the decimal text of numbers, the leaves of objects (see collectSecrets).
    const own = (this.secrets ??= new Set());
    const found = new Set<string>();
    collectSecrets(value, found);
    for (const secret of found) own.add(secret);
    book.remember(found);
  }

  /**
   * What redacts this call's output: the values its presets resolved to, and every value its tool
   * is known to use (so that output made before the presets resolve is redacted too).
   * `undefined` for tools without presets.
   */
  private redaction(): Scrub | undefined {
    const entry = this.entry;
    if (entry === undefined || entry.presets === undefined) return undefined;
    return presetSecretsOf(entry).scrub(this.secrets);
  }

  /**
   * `describeThrown` of a redacted copy (its JSON text then holds no secret in any escaping),
   * redacted again before the cut, so no part of a secret is left at the cut.
   */
  private describe(thrown: unknown): string {
    const scrub = this.redaction();
    return scrub ? describeThrown(redactDeep(thrown, scrub), scrub) : describeThrown(thrown);
  }

  private afterAttempt(entry: ToolEntry, attempt: Attempt): ToolResult | Promise<ToolResult> {
    if (this.done) return this.final!;
    switch (attempt.state) {
      case AttemptState.Succeeded:
        return this.success(entry, attempt.value);
      case AttemptState.Aborted:
        return this.aborted(this.failure?.abortText || 'the caller cancelled the call');
      default:
        return this.attemptFailed(entry, attempt);
    }
  }

  private attemptFailed(entry: ToolEntry, attempt: Attempt): ToolResult | Promise<ToolResult> {
    const settings = this.settings!;
    const n = attempt.attempt;
    const timedOut = attempt.state === AttemptState.TimedOut;
    const error = attempt.value;
    const code: ToolkitErrorCode = timedOut ? 'TIMEOUT' : ToolkitError.is(error, 'CONTEXT_MISSING') ? 'CONTEXT_MISSING' : 'EXECUTION_FAILED';
    const message = timedOut
      ? `Tool '${entry.name}' timed out after ${settings.timeoutMs} ms`
      : code === 'CONTEXT_MISSING'
        ? this.describe(error)
        : `Tool '${entry.name}' failed: ${this.describe(error)}`;
    this.emitAttemptFailed(attempt, code, message);
    // a timed-out body may still be running: retrying could repeat its side effect, so only
    // tools marked idempotent (or a retryOn that says so) retry a timeout
    const retryable = settings.retryOn !== undefined ? safePredicate(settings.retryOn, error, n) : !timedOut || entry.behaviour.annotations?.idempotent === true;
    const retry = code !== 'CONTEXT_MISSING' && n < settings.maxAttempts && retryable;
    if (!retry) {
      const after = n > 1 ? ` (after ${n} attempts)` : '';
      if (timedOut) {
        this.endKind = End.TimedOut;
        return this.errorAnswer('TIMEOUT', `${message}${after}. Its work was cancelled; try again, or with a smaller request.`);
      }
      this.failure = { abortText: '', cause: error };
      return this.errorAnswer(code, `${message}${after}`);
    }
    const delay = backoffDelay(settings, n);
    this.emitRetry(n + 1, delay);
    return this.backoff(delay).then(() => {
      if (this.done) return this.final!;
      try {
        return this.runAttempt(entry, n + 1, Date.now());
      } catch (error) {
        return this.internalFailure(error);
      }
    });
  }

  /** Waits `ms` before a retry; the caller's abort ends the wait at once (see `cancelBackoff`). */
  private backoff(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.backoffWait = undefined;
        resolve();
      }, ms);
      this.backoffWait = { timer, done: resolve };
    });
  }

  private cancelBackoff(): void {
    const wait = this.backoffWait;
    if (wait === undefined) return;
    this.backoffWait = undefined;
    clearTimeout(wait.timer);
    wait.done();
  }

  // ------------------------------------------------------------------ AttemptHost

  /** @internal */
  resolver(): ChainResolver {
    return (this.chain ??= new ChainResolver(this, this.options, this.core));
  }

  /** @internal */
  progress(progress: ToolProgress, attempt: number): void {
    if (this.done) return;
    const scrub = this.redaction();
    let safe = progress;
    if (scrub !== undefined) {
      const clean = redactDeep(progress, scrub);
      safe = typeof clean === 'object' && clean !== null ? (clean as ToolProgress) : { message: REDACTED };
    }
    if (this.core.events.observed) this.core.events.next({ type: 'call_progress', ...this.eventBase(), progress: safe, attempt });
    const onProgress = this.options.onProgress;
    if (onProgress !== undefined) callSafely(onProgress, { ...safe, callId: this.call.id, tool: this.toolName() }, this.core.report, 'onProgress', this.eventBase());
  }

  /** @internal */
  timeoutReason(): unknown {
    const name = this.toolName();
    return new ToolkitError('TIMEOUT', `Tool '${name}' timed out after ${this.settings?.timeoutMs ?? 0} ms`, { tool: name });
  }

  // ------------------------------------------------------------------ results

  private toolName(): string {
    return this.entry !== undefined ? this.entry.name : String(this.call.name);
  }

  /** The tool's name as error texts quote it (an unknown name is the model's input: bounded). */
  private quotedName(): string {
    return this.entry !== undefined ? `'${this.entry.name}'` : quoteInput(String(this.call.name));
  }

  private success(entry: ToolEntry, value: unknown): ToolResult {
    const scrub = this.redaction();
    if (typeof value !== 'string') return answerFor(scrub ? redactedToolResult(value, scrub) : toToolResult(value), entry, this.core, this.call.id);
    let text = scrub ? scrub(value) : value;
    const max = entry.behaviour.maxResultChars ?? this.core.maxResultChars;
    if (max !== undefined && text.length > max) text = truncateText(text, max);
    return { forLLM: text, silent: false, isError: false, async: false, toolCallId: this.call.id, name: entry.name };
  }

  /** A copy of `produced` answering this call: preset values redacted, then `maxResultChars` applied. */
  private shape(entry: ToolEntry, produced: ToolResult): ToolResult {
    const scrub = this.redaction();
    return answerFor(scrub ? redactResult(produced, scrub) : produced, entry, this.core, this.call.id);
  }

  private errorAnswer(code: string, message: string): ToolResult {
    const scrub = this.redaction();
    const text = scrub ? scrub(message) : message;
    return {
      forLLM: text,
      silent: false,
      isError: true,
      async: false,
      error: { code, message: text },
      toolCallId: this.call.id,
      name: this.toolName(),
    };
  }

  private fail(code: ToolkitErrorCode, message: string, cause?: unknown): ToolResult {
    if (this.done) return this.final!;
    if (cause !== undefined) this.failure = { abortText: '', cause };
    return this.conclude(this.errorAnswer(code, message));
  }

  private aborted(reason: string): ToolResult {
    if (this.done) return this.final!;
    this.endKind = End.Aborted;
    this.failure = { abortText: reason };
    return this.conclude(this.errorAnswer('ABORTED', `Tool ${this.quotedName()} was aborted: ${reason}`));
  }

  private internalFailure(error: unknown): ToolResult {
    return this.fail('EXECUTION_FAILED', `Tool ${this.quotedName()} failed: ${this.describe(error)}`, error);
  }

  /** The one place a call ends: records the answer, emits the terminal event, arms async completion. */
  private conclude(result: ToolResult): ToolResult {
    if (this.done) return this.final!;
    this.done = true;
    this.final = result;
    this.current = undefined;
    if (this.core.events.observed) this.emitTerminal(result);
    if (this.asyncTrack !== undefined) this.settleAsync(this.asyncTrack, result);
    return result;
  }

  // ------------------------------------------------------------------ async completion

  /** @internal The call's {@link AsyncCompletion} (what the context chain injects for that type). */
  asyncCompletion(): AsyncCompletion {
    let track = this.asyncTrack;
    if (track === undefined) {
      track = this.asyncTrack = { state: AsyncState.Pending };
      if (this.done) this.settleAsync(track, this.final!);
    }
    return (track.handle ??= new AsyncCompletion(this, this.call.id, this.toolName()));
  }

  /** @internal */
  deliverAsync(value: unknown, failed: boolean): boolean {
    const track = this.asyncTrack;
    if (track === undefined) return false;
    if (track.state === AsyncState.Armed) {
      this.deliverNow(track, value, failed);
      return true;
    }
    if (track.state !== AsyncState.Pending || track.early !== undefined) return false;
    track.early = { value, failed };
    return true;
  }

  private settleAsync(track: AsyncTrack, result: ToolResult): void {
    const early = track.early;
    track.early = undefined;
    if (result.async && !result.isError) {
      track.state = AsyncState.Armed;
      if (early !== undefined) this.deliverNow(track, early.value, early.failed);
      return;
    }
    track.state = AsyncState.Closed;
    this.untrackAsyncTool(track);
  }

  private deliverNow(track: AsyncTrack, value: unknown, failed: boolean): void {
    track.state = AsyncState.Closed;
    this.untrackAsyncTool(track);
    const entry = this.entry!;
    const scrub = this.redaction();
    const produced = failed
      ? errorResult(`Tool '${entry.name}' failed in the background: ${this.describe(value)}`)
      : scrub
        ? redactedToolResult(value, scrub)
        : toToolResult(value);
    const result = answerFor(produced, entry, this.core, this.call.id);
    result.async = false;
    if (this.core.events.observed) this.core.events.next({ type: 'async_completed', ...this.eventBase(), result });
    const onAsyncComplete = this.options.onAsyncComplete;
    if (onAsyncComplete !== undefined) callSafely(onAsyncComplete, result, this.core.report, 'onAsyncComplete', this.eventBase());
  }

  private untrackAsyncTool(track: AsyncTrack): void {
    const key = track.toolKey;
    if (key === undefined) return;
    track.toolKey = undefined;
    if (this.core.asyncListeners.get(key) === this) this.core.asyncListeners.delete(key);
  }

  // ------------------------------------------------------------------ events

  private elapsedSince(start: number): number {
    return start < 0 ? 0 : Date.now() - start;
  }

  private eventBase(): ToolCallEventBase {
    // an unknown tool's name and the call id come from the model: events (logs, spans) get them bounded
    const tool = this.entry !== undefined ? this.entry.name : boundInput(String(this.call.name), MAX_EVENT_ID_CHARS);
    const base: ToolCallEventBase = { callId: boundInput(String(this.call.id), MAX_EVENT_ID_CHARS), tool, timestamp: Date.now() };
    if (this.options.sessionId !== undefined) base.sessionId = this.options.sessionId;
    return base;
  }

  private emitStarted(args: Record<string, unknown>): void {
    if (!this.core.events.observed) return;
    const scrub = this.redaction();
    const safe = scrub ? (redactDeep(args, scrub) as Record<string, unknown>) : args;
    this.core.events.next({ type: 'call_started', ...this.eventBase(), arguments: { ...safe } });
  }

  private emitAttemptFailed(attempt: Attempt, code: string, message: string): void {
    if (!this.core.events.observed) return;
    const scrub = this.redaction();
    const text = scrub ? scrub(message) : message;
    this.core.events.next({
      type: 'attempt_failed',
      ...this.eventBase(),
      attempt: attempt.attempt,
      error: { code, message: text },
      durationMs: this.elapsedSince(attempt.startedAt < 0 ? this.startedAt : attempt.startedAt),
    });
  }

  private emitRetry(attempt: number, delayMs: number): void {
    if (this.core.events.observed) this.core.events.next({ type: 'retry_scheduled', ...this.eventBase(), attempt, delayMs });
  }

  private emitTerminal(result: ToolResult): void {
    const events = this.core.events;
    const durationMs = this.elapsedSince(this.startedAt);
    const attempts = this.attempts;
    if (!result.isError) {
      events.next({ type: 'call_succeeded', ...this.eventBase(), result, attempts, durationMs });
      return;
    }
    const error = result.error ?? { code: 'EXECUTION_FAILED', message: result.forLLM };
    if (this.endKind === End.TimedOut && error.code === 'TIMEOUT') {
      events.next({ type: 'call_timed_out', ...this.eventBase(), timeoutMs: this.settings?.timeoutMs ?? 0, attempts, durationMs });
    } else if (this.endKind === End.Aborted && error.code === 'ABORTED') {
      const reason = this.failure?.abortText ?? '';
      const scrub = this.redaction();
      events.next({ type: 'call_aborted', ...this.eventBase(), reason: scrub ? scrub(reason) : reason, attempts, durationMs });
    } else {
      const event: CallFailedEvent = { type: 'call_failed', ...this.eventBase(), error, attempts, durationMs };
      const failure = this.failure;
      if (failure !== undefined && 'cause' in failure) {
        const scrub = this.redaction();
        event.cause = scrub ? redactDeep(failure.cause, scrub) : failure.cause;
      }
      events.next(event);
    }
  }
}
