import type { ExecutionOptions } from '../model/tool-types';

/** Retry and timeout settings of one tool after merging tool over toolkit (every field set). */
export interface ResolvedExecution {
  /** Per-attempt timeout in ms; `0` means none. */
  timeoutMs: number;
  /** Attempts in all, the first included (at least 1). */
  maxAttempts: number;
  /** Delay before the second attempt, in ms. */
  initialBackoffMs: number;
  /** Each further delay is the previous one times this. */
  backoffMultiplier: number;
  /** Upper bound of a delay, in ms. */
  maxBackoffMs: number;
  /** Each delay is randomised by up to this fraction of itself (0..1). */
  jitter: number;
  /** Decides whether a failure is worth another attempt (absent: every failure is). */
  retryOn?: (error: unknown, attempt: number) => boolean;
}

/** The largest delay `setTimeout` honours (longer ones fire at once). */
const MAX_TIMER_MS = 2_147_483_647;

/** Toolkit defaults when `execution` says nothing: no timeout, no retry. */
export const DEFAULT_EXECUTION: Readonly<ResolvedExecution> = Object.freeze({
  timeoutMs: 0,
  maxAttempts: 1,
  initialBackoffMs: 200,
  backoffMultiplier: 2,
  maxBackoffMs: 30_000,
  jitter: 0,
});

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && !Number.isNaN(value) ? value : fallback;
}

/**
 * Merges `override` over `base`, field by field. Absent (`undefined`) fields keep the base value,
 * so `{ retry: { maxAttempts: 3 } }` on a tool keeps the toolkit's backoff. Values are made safe
 * rather than rejected: negative numbers become 0, `maxAttempts` at least 1, `jitter` is clamped
 * to 0..1, and a non-finite `timeoutMs` means no timeout.
 *
 * @example
 * resolveExecution(DEFAULT_EXECUTION, { timeoutMs: 5_000, maxAttempts: 3 });
 */
export function resolveExecution(base: Readonly<ResolvedExecution>, override: ExecutionOptions | undefined): ResolvedExecution {
  if (override === undefined) return { ...base };
  const timeout = numberOr(override.timeoutMs, base.timeoutMs);
  const resolved: ResolvedExecution = {
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, MAX_TIMER_MS) : 0,
    maxAttempts: Math.max(1, Math.floor(numberOr(override.maxAttempts, base.maxAttempts))),
    initialBackoffMs: Math.min(MAX_TIMER_MS, Math.max(0, numberOr(override.initialBackoffMs, base.initialBackoffMs))),
    backoffMultiplier: Math.max(0, numberOr(override.backoffMultiplier, base.backoffMultiplier)),
    maxBackoffMs: Math.min(MAX_TIMER_MS, Math.max(0, numberOr(override.maxBackoffMs, base.maxBackoffMs))),
    jitter: Math.min(1, Math.max(0, numberOr(override.jitter, base.jitter))),
  };
  const retryOn = typeof override.retryOn === 'function' ? override.retryOn : base.retryOn;
  if (retryOn !== undefined) resolved.retryOn = retryOn;
  return resolved;
}

/**
 * The toolkit-wide settings a `Toolkit`'s `execution` option makes: its fields over no timeout and
 * no retry, made safe as {@link resolveExecution} does. Each tool's own settings merge over these.
 *
 * @example
 * executionDefaults({ timeoutMs: 30_000 }); // 30 s per attempt, one attempt
 */
export function executionDefaults(execution: ExecutionOptions | undefined): ResolvedExecution {
  return resolveExecution(DEFAULT_EXECUTION, execution);
}

/**
 * The delay before attempt `failedAttempt + 1`: `initialBackoffMs × backoffMultiplier^(failedAttempt−1)`,
 * randomised uniformly within ±`jitter` of itself, capped at `maxBackoffMs`, rounded to whole ms.
 *
 * @param random a number in [0, 1) (default `Math.random()`).
 */
export function backoffDelay(settings: Readonly<ResolvedExecution>, failedAttempt: number, random: number = Math.random()): number {
  const base = settings.initialBackoffMs * Math.pow(settings.backoffMultiplier, failedAttempt - 1);
  const jittered = settings.jitter > 0 ? base * (1 - settings.jitter + 2 * settings.jitter * random) : base;
  return Math.max(0, Math.round(Math.min(settings.maxBackoffMs, jittered)));
}
