import type { Ajv } from 'ajv';
import type { Container } from 'inversify';
import type { Subject } from 'rxjs';
import type { ContextResolver, ToolCallContext } from '../common/agent-tool';
import { isContextualTool } from '../common/agent-tool';
import type { ContextKey, ToolExecutionContext } from '../common/execution-context';
import { errorResult } from '../common/results';
import type { ToolCall, ToolProgress, ToolResult, ToolResultError } from '../common/tool-types';
import { describeThrown, ToolkitError, type ToolkitErrorCode } from '../errors';
import type { CallFailedEvent, ToolEvent } from '../toolkit/events';
import type { HookContext, ToolHook } from '../toolkit/hooks';
import { isContainerPreset } from '../toolkit/presets';
import type { Registry, ToolEntry } from '../toolkit/registry';
import { isThenable, settle, toToolResult, truncateText } from './convert';
import type { DeadlineScheduler } from './deadlines';
import { describeAjvErrors, prepareDtos, stripNullOptionals } from './validation';

/** Progress as delivered to a caller's `onProgress`: tagged with the call. */
export interface CallProgress extends ToolProgress {
  /** The call that reported it. */
  callId: string;
  /** The tool that reported it. */
  tool: string;
}

/** Options of `callTool` / `callTools`. */
export interface CallOptions {
  /** Call-level context objects (highest priority in the chain). */
  context?: ToolExecutionContext;
  /** Agent-level context objects (`runToolLoop` passes its `context` here). */
  agentContext?: ToolExecutionContext;
  /** Aborts running tools; aborted calls resolve with an `ABORTED` result. */
  signal?: AbortSignal;
  /** Receives each progress report of the call(s). */
  onProgress?: (progress: CallProgress) => void;
  /** Receives the completion of async tools started by the call(s). */
  onAsyncComplete?: (result: ToolResult) => void;
  /** The session of the call (set by session views). */
  sessionId?: string;
}

/** Retry and timeout settings after merging tool over toolkit. */
export interface ResolvedExecution {
  timeoutMs: number;
  maxAttempts: number;
  initialBackoffMs: number;
  backoffMultiplier: number;
  maxBackoffMs: number;
  jitter: number;
  retryOn?: (error: unknown, attempt: number) => boolean;
}

/** What decides whether a tool is enabled for a call. */
export interface AvailabilityView {
  isEnabled(entry: ToolEntry): boolean;
  /** Why `entry` is not enabled, for the model. */
  whyDisabled(entry: ToolEntry): string;
  /** Names of the enabled tools (for "did you mean" suggestions). */
  enabledNames(): string[];
}

/** @internal Everything the executor needs from a toolkit. */
export interface ExecutorCore {
  readonly registry: Registry;
  readonly ajv: Ajv;
  readonly hooks: readonly ToolHook[];
  readonly events: Subject<ToolEvent>;
  readonly deadlines: DeadlineScheduler;
  readonly defaults: ResolvedExecution;
  readonly container: Container;
  readonly context: ToolExecutionContext;
  readonly maxResultChars?: number;
  readonly asyncListeners: Map<string, (result: ToolResult) => void>;
}

class ChainResolver implements ContextResolver {
  constructor(
    private readonly call: ToolExecutionContext | undefined,
    private readonly agent: ToolExecutionContext | undefined,
    private readonly toolkit: ToolExecutionContext,
    private readonly container: Container,
  ) {}

  get<T>(key: ContextKey<T>): T | undefined {
    const value = this.call?.get(key) ?? this.agent?.get(key) ?? this.toolkit.get(key);
    if (value !== undefined) return value;
    const id = key as Parameters<Container['isBound']>[0];
    return this.container.isBound(id) ? (this.container.get(id) as T) : undefined;
  }
}

type Outcome =
  | { kind: 'ok'; value: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted'; reason: string };

const levenshtein = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]++;
    for (let j = 1; j <= b.length; j++) {
      const next = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = next;
    }
  }
  return row[b.length];
};

/** Up to three enabled names close to `name`. */
export function closeNames(name: string, candidates: readonly string[]): string[] {
  const lower = name.toLowerCase();
  return candidates
    .map((c) => ({ c, d: c.toLowerCase().includes(lower) || lower.includes(c.toLowerCase()) ? 0 : levenshtein(lower, c.toLowerCase()) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 3)))
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map(({ c }) => c);
}

function abortReason(signal: AbortSignal): string {
  return describeThrown(signal.reason ?? 'aborted');
}

function redact(text: string, secrets: readonly string[] | undefined): string {
  if (!secrets) return text;
  for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join('[REDACTED]');
  return text;
}

/**
 * Runs one call from the model's raw arguments to a {@link ToolResult}. Never rejects: every
 * fault becomes an error result with a message a model can act on.
 */
export class CallRun {
  private readonly startedAt = Date.now();
  private secrets?: string[];
  private entry?: ToolEntry;
  private resolver?: ChainResolver;
  private attempts = 0;

  constructor(
    private readonly core: ExecutorCore,
    private readonly view: AvailabilityView,
    private readonly call: ToolCall,
    private readonly options: CallOptions,
  ) {}

  run(): Promise<ToolResult> {
    try {
      const result = this.start();
      return isThenable(result) ? (result as Promise<ToolResult>).catch((e: unknown) => this.internalFailure(e)) : Promise.resolve(result);
    } catch (e) {
      return Promise.resolve(this.internalFailure(e));
    }
  }

  private internalFailure(error: unknown): ToolResult {
    return this.fail('EXECUTION_FAILED', `Tool '${this.call.name}' failed: ${describeThrown(error)}`, error);
  }

  private start(): ToolResult | Promise<ToolResult> {
    const { call, core } = this;
    const entry = core.registry.get(call.name);
    if (!entry) {
      const close = closeNames(String(call.name), this.view.enabledNames());
      return this.fail(
        'UNKNOWN_TOOL',
        `Unknown tool '${String(call.name)}'.${close.length ? ` Did you mean ${close.map((c) => `'${c}'`).join(', ')}?` : ''}` +
          ` Available tools: ${this.view.enabledNames().slice(0, 20).join(', ') || '(none)'}.`,
      );
    }
    this.entry = entry;
    if (!this.view.isEnabled(entry)) return this.fail('TOOL_DISABLED', this.view.whyDisabled(entry));

    const args = this.parseArguments(entry);
    if (!args) return this.lastFailure!;
    if (entry.dtos) return this.prepare(entry, args);
    return this.proceed(entry, args);
  }

  private lastFailure?: ToolResult;

  private parseArguments(entry: ToolEntry): Record<string, unknown> | undefined {
    const raw = this.call.arguments;
    let args: unknown;
    if (typeof raw === 'string') {
      if (raw.trim() === '') args = {};
      else {
        try {
          args = JSON.parse(raw);
        } catch (e) {
          this.lastFailure = this.fail(
            'MALFORMED_ARGUMENTS',
            `Arguments for tool '${entry.name}' are not valid JSON (${describeThrown(e)}). ` +
              `Send one JSON object with the parameters: ${Object.keys(entry.schema.properties).join(', ') || '(none)'}.`,
          );
          return undefined;
        }
      }
    } else args = raw;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      this.lastFailure = this.fail(
        'MALFORMED_ARGUMENTS',
        `Arguments for tool '${entry.name}' must be a JSON object, got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}.`,
      );
      return undefined;
    }
    let object = args as Record<string, unknown>;
    if (typeof raw !== 'string') object = { ...object };
    if (entry.stripNulls) stripNullOptionals(entry.schema, object);
    return this.validate(entry, object) ? object : undefined;
  }

  private validate(entry: ToolEntry, args: Record<string, unknown>): boolean {
    const validator = (entry.validator ??= this.core.ajv.compile(entry.schema));
    const valid = validator(args);
    const hidden = entry.presets?.filter((p) => Object.prototype.hasOwnProperty.call(args, p.name)) ?? [];
    if (valid && hidden.length === 0) return true;
    const problems = valid ? [] : describeAjvErrors(validator.errors ?? [], args);
    for (const { name } of hidden) {
      const line = `'${name}': is not a parameter of this tool (remove it)`;
      if (!problems.includes(line)) problems.push(line);
    }
    this.lastFailure = this.invalid(entry, problems);
    return false;
  }

  private invalid(entry: ToolEntry, problems: string[]): ToolResult {
    return this.fail(
      'INVALID_ARGUMENTS',
      `Invalid arguments for tool '${entry.name}':\n${problems.map((p) => `- ${p}`).join('\n')}\nFix these and call the tool again.`,
    );
  }

  private async prepare(entry: ToolEntry, args: Record<string, unknown>): Promise<ToolResult> {
    const problems = await prepareDtos(args, entry.dtos!);
    if (problems.length) return this.invalid(entry, problems);
    return this.proceed(entry, args);
  }

  private context(): ChainResolver {
    return (this.resolver ??= new ChainResolver(this.options.context, this.options.agentContext, this.core.context, this.core.container));
  }

  private proceed(entry: ToolEntry, args: Record<string, unknown>): ToolResult | Promise<ToolResult> {
    if (this.core.hooks.length > 0) return this.withHooks(entry, args);
    this.emitStarted(entry, args);
    return this.execute(entry, args);
  }

  private async withHooks(entry: ToolEntry, args: Record<string, unknown>): Promise<ToolResult> {
    let current = args;
    const hookContext = (): HookContext => ({
      call: this.call,
      tool: entry.tool,
      arguments: current,
      context: this.context(),
      ...(this.options.sessionId !== undefined ? { sessionId: this.options.sessionId } : {}),
    });
    for (const hook of this.core.hooks) {
      if (!hook.before) continue;
      let decision;
      try {
        decision = await hook.before(hookContext());
      } catch (e) {
        return this.fail('HOOK_FAILED', `Tool '${entry.name}' was stopped by hook '${hook.name}': ${describeThrown(e)}`, e);
      }
      if (!decision) continue;
      if (decision.action === 'deny') {
        return this.fail('DENIED', `Tool '${entry.name}' was denied: ${decision.reason}`);
      }
      if (decision.action === 'respond') return this.finish(entry, decision.result, true);
      if (decision.action === 'rewrite') {
        const rewritten = { ...decision.arguments };
        if (entry.stripNulls) stripNullOptionals(entry.schema, rewritten);
        if (!this.validate(entry, rewritten)) return this.lastFailure!;
        current = rewritten;
      }
    }
    this.emitStarted(entry, current);
    let result = await this.execute(entry, current);
    for (const hook of this.core.hooks) {
      if (!hook.after) continue;
      try {
        const replacement = await hook.after(hookContext(), result);
        if (replacement) result = this.finish(entry, replacement, false);
      } catch (e) {
        return this.fail('HOOK_FAILED', `Hook '${hook.name}' failed after tool '${entry.name}': ${describeThrown(e)}`, e);
      }
    }
    return result;
  }

  private emitStarted(entry: ToolEntry, args: Record<string, unknown>): void {
    if (!this.core.events.observed) return;
    this.core.events.next({ type: 'call_started', ...this.eventBase(entry.name), arguments: { ...args } });
  }

  private eventBase(tool: string): { callId: string; tool: string; sessionId?: string; timestamp: number } {
    return this.options.sessionId !== undefined
      ? { callId: this.call.id, tool, sessionId: this.options.sessionId, timestamp: Date.now() }
      : { callId: this.call.id, tool, timestamp: Date.now() };
  }

  private resolvePresets(entry: ToolEntry, args: Record<string, unknown>, ctx: ToolCallContext): Record<string, unknown> | Promise<Record<string, unknown>> {
    const merged = { ...args };
    const pending: Promise<void>[] = [];
    for (const { name, value } of entry.presets!) {
      let resolved: unknown = value;
      if (typeof value === 'function') resolved = (value as (c: ToolCallContext) => unknown)(ctx);
      else if (isContainerPreset(value)) resolved = this.core.container.get(value.token as Parameters<Container['get']>[0]);
      if (isThenable(resolved)) pending.push(Promise.resolve(resolved).then((v) => this.setPreset(merged, name, v)));
      else this.setPreset(merged, name, resolved);
    }
    return pending.length ? Promise.all(pending).then(() => merged) : merged;
  }

  private setPreset(target: Record<string, unknown>, name: string, value: unknown): void {
    target[name] = value;
    if (typeof value === 'string' && value.length >= 4) (this.secrets ??= []).push(value);
  }

  private execute(entry: ToolEntry, args: Record<string, unknown>): ToolResult | Promise<ToolResult> {
    const outcome = this.attempt(entry, args, 1);
    return isThenable(outcome) ? (outcome as Promise<Outcome>).then((o) => this.settleOutcome(entry, args, o, 1)) : this.settleOutcome(entry, args, outcome as Outcome, 1);
  }

  private settings(entry: ToolEntry): ResolvedExecution {
    const { timeoutMs, retry } = entry.behaviour;
    if (timeoutMs === undefined && retry === undefined) return this.core.defaults;
    return { ...this.core.defaults, ...(retry ?? {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
  }

  private attempt(entry: ToolEntry, args: Record<string, unknown>, attempt: number): Outcome | Promise<Outcome> {
    this.attempts = attempt;
    const callerSignal = this.options.signal;
    if (callerSignal?.aborted) return { kind: 'aborted', reason: abortReason(callerSignal) };
    const controller = new AbortController();
    const emit = (progress: ToolProgress | string) => this.progress(entry, typeof progress === 'string' ? { message: progress } : progress);
    const ctx: ToolCallContext = {
      callId: this.call.id,
      toolName: entry.name,
      signal: controller.signal,
      attempt,
      context: this.context(),
      emit,
      ...(this.options.sessionId !== undefined ? { sessionId: this.options.sessionId } : {}),
    };
    if (entry.presets) {
      const withPresets = this.resolvePresets(entry, args, ctx);
      if (isThenable(withPresets)) {
        return (withPresets as Promise<Record<string, unknown>>).then(
          (full) => this.invoke(entry, full, ctx, controller, callerSignal),
          (error: unknown) => ({ kind: 'error', error }) as Outcome,
        );
      }
      return this.invoke(entry, withPresets as Record<string, unknown>, ctx, controller, callerSignal);
    }
    return this.invoke(entry, args, ctx, controller, callerSignal);
  }

  private invoke(
    entry: ToolEntry,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
    controller: AbortController,
    callerSignal: AbortSignal | undefined,
  ): Outcome | Promise<Outcome> {
    let value: unknown;
    try {
      if (entry.contextual && isContextualTool(entry.target)) {
        const { context } = this.options;
        entry.target.setContext(context ?? this.options.agentContext ?? this.core.context, ctx);
      }
      value = settle(entry.target.execute(args, ctx), ctx.emit);
    } catch (error) {
      return { kind: 'error', error };
    }
    if (!isThenable(value)) return { kind: 'ok', value };
    const timeoutMs = this.settings(entry).timeoutMs;
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      const finish = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        deadline?.cancel();
        callerSignal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const onAbort = () => {
        const reason = abortReason(callerSignal!);
        controller.abort(callerSignal!.reason);
        finish({ kind: 'aborted', reason });
      };
      const deadline =
        timeoutMs > 0
          ? this.core.deadlines.schedule(timeoutMs, () => {
              controller.abort(new ToolkitError('TIMEOUT', `Tool '${entry.name}' timed out after ${timeoutMs} ms`));
              finish({ kind: 'timeout' });
            })
          : undefined;
      callerSignal?.addEventListener('abort', onAbort, { once: true });
      (value as PromiseLike<unknown>).then(
        (v) => finish({ kind: 'ok', value: v }),
        (error: unknown) => finish({ kind: 'error', error }),
      );
    });
  }

  private settleOutcome(entry: ToolEntry, args: Record<string, unknown>, outcome: Outcome, attempt: number): ToolResult | Promise<ToolResult> {
    switch (outcome.kind) {
      case 'ok':
        return this.finish(entry, toToolResult(outcome.value), true);
      case 'aborted':
        this.emitAborted(entry, outcome.reason);
        return this.result(entry, errorResult(`Tool '${entry.name}' was aborted: ${outcome.reason}`, 'ABORTED'));
      case 'timeout':
      case 'error':
        return this.retryOrFail(entry, args, outcome, attempt);
    }
  }

  private retryOrFail(entry: ToolEntry, args: Record<string, unknown>, outcome: Outcome & { kind: 'timeout' | 'error' }, attempt: number): ToolResult | Promise<ToolResult> {
    const settings = this.settings(entry);
    const error = outcome.kind === 'timeout' ? new ToolkitError('TIMEOUT', `timed out after ${settings.timeoutMs} ms`) : outcome.error;
    const code: ToolkitErrorCode = outcome.kind === 'timeout' ? 'TIMEOUT' : ToolkitError.is(error, 'CONTEXT_MISSING') ? 'CONTEXT_MISSING' : 'EXECUTION_FAILED';
    const message =
      outcome.kind === 'timeout'
        ? `Tool '${entry.name}' timed out after ${settings.timeoutMs} ms.`
        : code === 'CONTEXT_MISSING'
          ? describeThrown(error)
          : `Tool '${entry.name}' failed: ${describeThrown(error)}`;
    const retryable = code !== 'CONTEXT_MISSING' && attempt < settings.maxAttempts && !this.options.signal?.aborted && (settings.retryOn ? safePredicate(settings.retryOn, error, attempt) : true);
    if (retryable || settings.maxAttempts > 1) this.emitAttemptFailed(entry, attempt, code, message);
    if (!retryable) {
      if (outcome.kind === 'timeout') {
        this.emitTimedOut(entry, settings.timeoutMs);
        return this.result(entry, errorResult(redact(message, this.secrets), 'TIMEOUT'));
      }
      return this.fail(code, message, error);
    }
    const base = Math.min(settings.maxBackoffMs, settings.initialBackoffMs * Math.pow(settings.backoffMultiplier, attempt - 1));
    const delay = Math.max(0, Math.round(base * (1 + (settings.jitter > 0 ? (Math.random() * 2 - 1) * settings.jitter : 0))));
    this.emitRetry(entry, attempt + 1, delay);
    return this.sleep(delay).then((aborted) => {
      if (aborted) {
        const reason = abortReason(this.options.signal!);
        this.emitAborted(entry, reason);
        return this.result(entry, errorResult(`Tool '${entry.name}' was aborted: ${reason}`, 'ABORTED'));
      }
      const next = this.attempt(entry, args, attempt + 1);
      return isThenable(next) ? (next as Promise<Outcome>).then((o) => this.settleOutcome(entry, args, o, attempt + 1)) : this.settleOutcome(entry, args, next as Outcome, attempt + 1);
    });
  }

  /** Waits `ms`; resolves `true` early when the caller aborts. */
  private sleep(ms: number): Promise<boolean> {
    const signal = this.options.signal;
    return new Promise((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(false);
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private progress(entry: ToolEntry, progress: ToolProgress): void {
    const safe = this.secrets && progress.message ? { ...progress, message: redact(progress.message, this.secrets) } : progress;
    if (this.core.events.observed) this.core.events.next({ type: 'call_progress', ...this.eventBase(entry.name), progress: safe });
    this.options.onProgress?.({ ...safe, callId: this.call.id, tool: entry.name });
  }

  private finish(entry: ToolEntry, produced: ToolResult, emit: boolean): ToolResult {
    let forLLM = produced.forLLM;
    let forUser = produced.forUser;
    if (this.secrets) {
      forLLM = redact(forLLM, this.secrets);
      if (forUser !== undefined) forUser = redact(forUser, this.secrets);
    }
    const max = entry.behaviour.maxResultChars ?? this.core.maxResultChars;
    if (max !== undefined && forLLM.length > max) forLLM = truncateText(forLLM, max);
    const result: ToolResult = { ...produced, forLLM, toolCallId: this.call.id, name: entry.name };
    if (forUser !== undefined) result.forUser = forUser;
    if (result.async) this.watchAsync(entry);
    if (emit && this.core.events.observed) {
      if (result.isError) {
        this.core.events.next({
          type: 'call_failed',
          ...this.eventBase(entry.name),
          error: result.error ?? { code: 'EXECUTION_FAILED', message: result.forLLM },
          attempts: this.attempts,
          durationMs: Date.now() - this.startedAt,
        });
      } else {
        this.core.events.next({ type: 'call_succeeded', ...this.eventBase(entry.name), result, attempts: this.attempts, durationMs: Date.now() - this.startedAt });
      }
    }
    return result;
  }

  private watchAsync(entry: ToolEntry): void {
    const listener = this.options.onAsyncComplete;
    if (listener) this.core.asyncListeners.set(`${entry.name}\u0000${this.call.id}`, listener);
  }

  private result(entry: ToolEntry | undefined, produced: ToolResult): ToolResult {
    return { ...produced, toolCallId: this.call.id, name: entry?.name ?? String(this.call.name) };
  }

  private fail(code: ToolkitErrorCode, message: string, cause?: unknown): ToolResult {
    const safe = redact(message, this.secrets);
    const result = this.result(this.entry, errorResult(safe, code));
    if (this.core.events.observed) {
      const event: CallFailedEvent = {
        type: 'call_failed',
        ...this.eventBase(result.name!),
        error: { code, message: safe },
        attempts: this.attempts,
        durationMs: Date.now() - this.startedAt,
      };
      if (cause !== undefined) event.cause = this.secrets && cause instanceof Error ? new Error(redact(cause.message, this.secrets)) : cause;
      this.core.events.next(event);
    }
    return result;
  }

  private emitAttemptFailed(entry: ToolEntry, attempt: number, code: string, message: string): void {
    if (!this.core.events.observed) return;
    const error: ToolResultError = { code, message: redact(message, this.secrets) };
    this.core.events.next({ type: 'attempt_failed', ...this.eventBase(entry.name), attempt, error, durationMs: Date.now() - this.startedAt });
  }

  private emitRetry(entry: ToolEntry, attempt: number, delayMs: number): void {
    if (this.core.events.observed) this.core.events.next({ type: 'retry_scheduled', ...this.eventBase(entry.name), attempt, delayMs });
  }

  private emitTimedOut(entry: ToolEntry, timeoutMs: number): void {
    if (this.core.events.observed) {
      this.core.events.next({ type: 'call_timed_out', ...this.eventBase(entry.name), timeoutMs, attempts: this.attempts, durationMs: Date.now() - this.startedAt });
    }
  }

  private emitAborted(entry: ToolEntry, reason: string): void {
    if (this.core.events.observed) {
      this.core.events.next({ type: 'call_aborted', ...this.eventBase(entry.name), reason, durationMs: Date.now() - this.startedAt });
    }
  }
}

function safePredicate(predicate: (error: unknown, attempt: number) => boolean, error: unknown, attempt: number): boolean {
  try {
    return predicate(error, attempt);
  } catch {
    return false;
  }
}
