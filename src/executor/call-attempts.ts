import { isAsyncTool } from '../common/agent-tool';
import { quoteInput } from '../common/quote-input';
import type { ToolResult } from '../common/tool-types';
import { ToolkitError, type ToolkitErrorCode } from '../errors';
import { trackAsyncTool } from './async-calls';
import { Attempt, AttemptState } from './attempt';
import { abortCall, conclude, concludeSafely, fail, internalFailure } from './call-end';
import { emitAttemptFailed, emitRetry } from './call-events';
import { invokeTarget, invokeWithPresets } from './call-presets';
import { errorAnswer, successOf } from './call-shape';
import { End, describe, quotedName, type CallState } from './call-state';
import { isPending } from './convert';
import { backoffDelay, resolveExecution, type ResolvedExecution } from './execution-settings';
import type { ExecutorCore } from './executor-core';
import { runRemote } from './remote-call';
import type { ToolEntry } from './tool-entry';

/**
 * Codes of errors a tool may throw that say what to fix and that another attempt would not: the
 * result carries the code, and the call is not retried (a missing context object; a preset bound
 * only where the tool runs elsewhere; a client that
 * cannot be asked, or whose user already answered).
 */
const UNRETRIED_CODES: ReadonlySet<string> = new Set<ToolkitErrorCode>(['CONTEXT_MISSING', 'PRESET_UNBOUND', 'CLIENT_UNAVAILABLE', 'CLIENT_CAPABILITY_MISSING', 'CLIENT_REQUEST_FAILED']);

/** Per-entry merged settings (only for tools with their own `timeoutMs` / `retry`). */
const settingsCache = new WeakMap<ToolEntry, ResolvedExecution>();

function safePredicate(predicate: (error: unknown, attempt: number) => boolean, error: unknown, attempt: number): boolean {
  try {
    return predicate(error, attempt) === true;
  } catch {
    return false;
  }
}

/** @internal The timeout and retry settings of `entry`: its own over the toolkit's. */
export function settingsFor(core: ExecutorCore, entry: ToolEntry): ResolvedExecution {
  const { timeoutMs, retry } = entry.behaviour;
  if (timeoutMs === undefined && retry === undefined) return core.defaults;
  let settings = settingsCache.get(entry);
  if (settings === undefined) {
    settings = resolveExecution(core.defaults, timeoutMs === undefined ? retry : { ...retry, timeoutMs });
    settingsCache.set(entry, settings);
  }
  return settings;
}

/**
 * @internal Runs the tool: attempt after attempt (each under the timeout, a retry after its
 * backoff) until one answers or the retries run out. Synchronous while the tool is.
 */
export function runAttempts(run: CallState, entry: ToolEntry): ToolResult | Promise<ToolResult> {
  // a worker's job runs here, never back to the queue
  const runner = run.handoff === undefined ? run.core.remote?.runnerFor(entry) : undefined;
  if (runner !== undefined) return runRemote(run, entry, runner, budgetOf(run, 1));
  if (isAsyncTool(entry.target) && !trackAsyncTool(run, entry)) {
    return fail(
      run,
      'DUPLICATE_CALL_ID',
      `Tool ${quotedName(run)} is still completing an earlier call with id ${quoteInput(run.call.id)} in the background; ` +
        'send this call with an id of its own.',
    );
  }
  return runAttempt(run, entry, run.handoff?.attempt ?? 1, -1);
}

function runAttempt(run: CallState, entry: ToolEntry, n: number, startedAt: number): ToolResult | Promise<ToolResult> {
  const attempt = new Attempt(run, run.call.id, entry.name, n, run.options.sessionId, startedAt);
  run.current = attempt;
  run.attempts = n;
  const budget = budgetOf(run, n);
  // a synchronous body cannot be interrupted: what it answers after its deadline is a timeout
  const invokedAt = budget > 0 ? Date.now() : 0;
  let value: unknown;
  try {
    value = entry.presets === undefined ? invokeTarget(run, entry, run.args!, attempt) : invokeWithPresets(run, entry, attempt);
  } catch (error) {
    if (budget > 0 && Date.now() - invokedAt >= budget) attempt.onDeadline();
    else attempt.end(AttemptState.Threw, error);
    return attemptEnded(run);
  }
  if (!isPending(value)) {
    if (budget > 0 && Date.now() - invokedAt >= budget) attempt.onDeadline();
    else attempt.end(AttemptState.Succeeded, value);
    return attemptEnded(run);
  }
  return attempt.wait(value, budget, run.core.deadlines);
}

/**
 * The timeout of attempt `n` in ms (0: none): the first attempt gets what the `before` hooks
 * left of the call's timeout (at least 1 ms); each retry gets the whole timeout. A worker's
 * attempt gets no more than what is left of its caller's timeout.
 */
function budgetOf(run: CallState, n: number): number {
  const timeoutMs = run.settings!.timeoutMs;
  const deadlineAt = run.handoff?.deadlineAt;
  if (deadlineAt !== undefined) {
    const left = Math.max(1, deadlineAt - Date.now());
    return timeoutMs === 0 ? left : Math.min(timeoutMs, left);
  }
  if (timeoutMs === 0 || n > 1 || run.hooksStartedAt < 0) return timeoutMs;
  return Math.max(1, timeoutMs - (Date.now() - run.hooksStartedAt));
}

/**
 * @internal Where the call's current attempt ends up: the answer (concluded unless `after` hooks
 * come first), a retry, or a failure. Never throws.
 */
export function attemptEnded(run: CallState): ToolResult | Promise<ToolResult> {
  try {
    const result = afterAttempt(run);
    if (!run.concludeInline) return result;
    return result instanceof Promise ? result.then((r) => concludeSafely(run, r)) : conclude(run, result);
  } catch (error) {
    return internalFailure(run, error);
  }
}

function afterAttempt(run: CallState): ToolResult | Promise<ToolResult> {
  if (run.done) return run.final!;
  // a call that is not done is at its current attempt: the next starts only after this one ended
  const attempt = run.current!;
  const entry = run.entry!;
  switch (attempt.state) {
    case AttemptState.Succeeded:
      return successOf(run, entry, attempt.value);
    case AttemptState.Aborted:
      return abortCall(run, run.failure?.abortText || 'the caller cancelled the call');
    default:
      return attemptFailed(run, entry, attempt);
  }
}

function attemptFailed(run: CallState, entry: ToolEntry, attempt: Attempt): ToolResult | Promise<ToolResult> {
  const settings = run.settings!;
  const n = attempt.attempt;
  const timedOut = attempt.state === AttemptState.TimedOut;
  const error = attempt.value;
  const code: ToolkitErrorCode = timedOut ? 'TIMEOUT' : ToolkitError.is(error) && UNRETRIED_CODES.has(error.code) ? error.code : 'EXECUTION_FAILED';
  const message = timedOut
    ? `Tool '${entry.name}' timed out after ${settings.timeoutMs} ms`
    : code !== 'EXECUTION_FAILED'
      ? describe(run, error)
      : `Tool '${entry.name}' failed: ${describe(run, error)}`;
  emitAttemptFailed(run, attempt, code, message);
  // a timed-out body may still be running: retrying could repeat its side effect, so only
  // tools marked idempotent (or a retryOn that says so) retry a timeout
  const retryable = settings.retryOn !== undefined ? safePredicate(settings.retryOn, error, n) : !timedOut || entry.behaviour.annotations?.idempotent === true;
  const handoff = run.handoff;
  const maxAttempts = handoff === undefined ? settings.maxAttempts : Math.min(settings.maxAttempts, handoff.maxAttempts);
  const retry = !UNRETRIED_CODES.has(code) && n < maxAttempts && retryable;
  if (!retry) {
    const after = n > 1 ? ` (after ${n} attempts)` : '';
    if (timedOut) {
      run.endKind = End.TimedOut;
      return errorAnswer(run, 'TIMEOUT', `${message}${after}. Its work was cancelled; try again, or with a smaller request.`);
    }
    run.failure = { abortText: '', cause: error };
    return errorAnswer(run, code, `${message}${after}`);
  }
  const delay = backoffDelay(settings, n);
  emitRetry(run, n + 1, delay);
  if (handoff !== undefined) {
    // the queue runs the next attempt (on any worker) once the backoff is over
    handoff.retryDelayMs = delay;
    run.failure = { abortText: '', cause: error };
    return errorAnswer(run, code, message);
  }
  return backoff(run, delay).then(() => {
    if (run.done) return run.final!;
    try {
      return runAttempt(run, entry, n + 1, Date.now());
    } catch (error) {
      return internalFailure(run, error);
    }
  });
}

/** Waits `ms` before a retry; the caller's abort ends the wait at once (see {@link cancelBackoff}). */
function backoff(run: CallState, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      run.backoffWait = undefined;
      resolve();
    }, ms);
    run.backoffWait = { timer, done: resolve };
  });
}

/** @internal Ends a pending retry backoff at once (the caller aborted). */
export function cancelBackoff(run: CallState): void {
  const wait = run.backoffWait;
  if (wait === undefined) return;
  run.backoffWait = undefined;
  clearTimeout(wait.timer);
  wait.done();
}
