import { quoteInput } from '../../utils/quote-input';
import { ToolkitError, type ToolkitErrorCode } from '../../errors';
import { AttemptPhase, type Attempt } from './attempt';
import { aborted, failed, Stop } from './call-end';
import { emitAttemptFailed, emitRetry } from './emit-events';
import { End, describe, quotedName, type CallState } from './call-state';
import { backoffDelay, resolveExecution, type ResolvedExecution } from '../execution-settings';
import type { ExecutorParts } from '../executor-parts';
import type { ToolEntry } from '../tool-entry';

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
export function settingsFor(parts: ExecutorParts, entry: ToolEntry): ResolvedExecution {
  const { timeoutMs, retry } = entry.behaviour;
  if (timeoutMs === undefined && retry === undefined) return parts.defaults;
  let settings = settingsCache.get(entry);
  if (settings === undefined) {
    settings = resolveExecution(parts.defaults, timeoutMs === undefined ? retry : { ...retry, timeoutMs });
    settingsCache.set(entry, settings);
  }
  return settings;
}

/** @internal `DUPLICATE_CALL_ID`: an `AsyncTool` call whose id another live call of the tool still waits under. */
export function duplicateCall(run: CallState): Stop {
  return failed(
    'DUPLICATE_CALL_ID',
    `Tool ${quotedName(run)} is still completing an earlier call with id ${quoteInput(run.call.id)} in the background; ` +
      'send this call with an id of its own.',
  );
}

/**
 * @internal Ends `attempt` with what the tool's body returned (`Succeeded`) or threw (`Threw`)
 * synchronously. A synchronous body cannot be interrupted: what it answers after its deadline
 * (`budget` ms from `invokedAt`) is a timeout.
 */
export function endInline(attempt: Attempt, phase: AttemptPhase.Succeeded | AttemptPhase.Threw, value: unknown, budget: number, invokedAt: number): void {
  if (budget > 0 && Date.now() - invokedAt >= budget) attempt.onDeadline();
  else attempt.end(phase, value);
}

/**
 * @internal The timeout of attempt `n` in ms (0: none): the first attempt gets what the `before`
 * hooks left of the call's timeout (at least 1 ms); each retry gets the whole timeout. A worker's
 * attempt gets no more than what is left of its caller's timeout.
 */
export function budgetOf(run: CallState, n: number): number {
  const timeoutMs = run.settings!.timeoutMs;
  const deadlineAt = run.handoff?.deadlineAt;
  if (deadlineAt !== undefined) {
    const left = Math.max(1, deadlineAt - Date.now());
    return timeoutMs === 0 ? left : Math.min(timeoutMs, left);
  }
  if (timeoutMs === 0 || n > 1 || run.hooksStartedAt < 0) return timeoutMs;
  return Math.max(1, timeoutMs - (Date.now() - run.hooksStartedAt));
}

/** @internal Another attempt follows a failed one, after `delayMs`; `stop`: the answer of a worker, whose queue runs it. */
export class Retry {
  constructor(
    readonly delayMs: number,
    readonly stop: Stop,
  ) {}
}

/**
 * @internal How the call goes on after `attempt` ended without an answer: a {@link Retry}, or how
 * it ends (aborted, or failed: see {@link attemptFailed}).
 */
export function attemptMissed(run: CallState, entry: ToolEntry, attempt: Attempt): Stop | Retry {
  if (attempt.phase === AttemptPhase.Aborted) return aborted(run, run.failure?.abortText || 'the caller cancelled the call');
  return attemptFailed(run, entry, attempt);
}

/**
 * @internal What follows `attempt`, which timed out or threw: its `attempt_failed` is out, then
 * either the call's answer (the attempts ran out, or the error says what to fix and another attempt
 * would not) or a {@link Retry} (its `retry_scheduled` is out).
 */
function attemptFailed(run: CallState, entry: ToolEntry, attempt: Attempt): Stop | Retry {
  const settings = run.settings!;
  const n = attempt.attempt;
  const timedOut = attempt.phase === AttemptPhase.TimedOut;
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
  if (UNRETRIED_CODES.has(code) || n >= maxAttempts || !retryable) {
    const after = n > 1 ? ` (after ${n} attempts)` : '';
    if (timedOut) return new Stop('TIMEOUT', `${message}${after}. Its work was cancelled; try again, or with a smaller request.`, End.TimedOut);
    return new Stop(code, `${message}${after}`, End.Normal, { abortText: '', cause: error });
  }
  const delay = backoffDelay(settings, n);
  emitRetry(run, n + 1, delay);
  return new Retry(delay, new Stop(code, message, End.Normal, { abortText: '', cause: error }));
}

/** @internal The wait before a retry: {@link over} resolves after `ms`, or at once on {@link cancel} (the caller aborted). */
export class Backoff {
  readonly over: Promise<void>;
  private readonly timer: ReturnType<typeof setTimeout>;
  private done!: () => void;

  constructor(ms: number) {
    let timer!: ReturnType<typeof setTimeout>;
    this.over = new Promise<void>((resolve) => {
      this.done = resolve;
      timer = setTimeout(resolve, ms);
    });
    this.timer = timer;
  }

  /** Ends the wait now. */
  cancel(): void {
    clearTimeout(this.timer);
    this.done();
  }
}
