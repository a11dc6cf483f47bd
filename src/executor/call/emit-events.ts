import { MalformedArguments, parseCallArguments } from '../../model/call-arguments';
import { callSafely } from '../../utils/guarded-observable';
import { boundInput, previewInput } from '../../utils/quote-input';
import type { RepairChange } from '../../model/repair-types';
import type { ToolLogEntry } from '../../model/tool-emitter';
import type { ToolProgress, ToolResult } from '../../model/tool-types';
import type { Attempt } from './attempt';
import { End, redaction, toolName, type CallState } from './call-state';
import type { CallFailedEvent, CallLogEvent, CallStartedEvent, ToolCallEventBase } from '../event-types';
import { redactDeep, REDACTED, type Scrub } from '../presets/redact';

/** The longest model-sent tool name or call id an event carries (provider ids are far shorter). */
const MAX_EVENT_ID_CHARS = 256;

/**
 * The most characters of arguments that a call rejected before it started echoes in its
 * `call_started` (as an object when their JSON is no longer, otherwise as `rawArguments` cut short).
 */
const MAX_REJECTED_ARGUMENTS_CHARS = 4096;

function elapsedSince(start: number): number {
  return start < 0 ? 0 : Date.now() - start;
}

/** @internal The fields every event of the call carries. */
export function eventBase(run: CallState): ToolCallEventBase {
  // an unknown tool's name and the call id come from the model: events (logs, spans) get them bounded
  const tool = run.entry !== undefined ? run.entry.name : boundInput(String(run.call.name), MAX_EVENT_ID_CHARS);
  const base: ToolCallEventBase = { callId: boundInput(String(run.call.id), MAX_EVENT_ID_CHARS), tool, timestamp: Date.now() };
  if (run.options.sessionId !== undefined) base.sessionId = run.options.sessionId;
  return base;
}

/** @internal `call_started`, with the validated model arguments (the run emits it once per call). */
export function emitStarted(run: CallState, args: Record<string, unknown>): void {
  if (!run.parts.events.observed) return;
  const scrub = redaction(run);
  const safe = scrub ? (redactDeep(args, scrub) as Record<string, unknown>) : args;
  run.parts.events.next({ type: 'call_started', ...eventBase(run), arguments: { ...safe } });
  emitRepaired(run);
}

/** `call_repaired`, right after `call_started`, when a repair changed the call's arguments. */
function emitRepaired(run: CallState): void {
  const changes = run.repairs;
  if (changes === undefined || !run.parts.events.observed) return;
  const scrub = redaction(run);
  const safe = scrub ? (redactDeep(changes, scrub) as RepairChange[]) : changes;
  run.parts.events.next({ type: 'call_repaired', ...eventBase(run), changes: safe.map((change) => ({ ...change })) });
}

/**
 * @internal The `call_started` of a call that ends before its first attempt (unknown or disabled
 * tool, malformed or invalid arguments, a hook's denial or answer, an abort), stamped with the
 * time the call was made: what `arguments` and `rawArguments` hold is told on {@link CallStartedEvent}.
 */
export function emitUnstarted(run: CallState): void {
  const scrub = redaction(run);
  const event: CallStartedEvent = { type: 'call_started', ...eventBase(run), arguments: {} };
  if (run.startedAt >= 0) event.timestamp = run.startedAt;
  if (run.args !== undefined) {
    event.arguments = { ...(scrub ? (redactDeep(run.args, scrub) as Record<string, unknown>) : run.args) };
  } else {
    const raw = run.call.arguments;
    const parsed = parseCallArguments(raw);
    const size = typeof raw === 'string' ? raw.length : previewInput(parsed, MAX_REJECTED_ARGUMENTS_CHARS + 1).length;
    if (!(parsed instanceof MalformedArguments) && size <= MAX_REJECTED_ARGUMENTS_CHARS) event.arguments = rejectedArguments(run, parsed, scrub);
    else event.rawArguments = rawText(raw, scrub);
  }
  run.parts.events.next(event);
  emitRepaired(run);
}

/** Arguments the model sent to a call that was rejected: redacted, a value for a preset parameter hidden whatever it is. */
function rejectedArguments(run: CallState, args: Record<string, unknown>, scrub: Scrub | undefined): Record<string, unknown> {
  const safe = scrub ? (redactDeep(args, scrub) as Record<string, unknown>) : args;
  const presets = run.entry?.presets;
  if (presets !== undefined) {
    for (const { name } of presets) if (Object.prototype.hasOwnProperty.call(safe, name)) safe[name] = REDACTED;
  }
  return safe;
}

/** Arguments that are no JSON object (or too long to echo whole) as text: redacted first, then cut. */
function rawText(raw: unknown, scrub: Scrub | undefined): string {
  const text = typeof raw === 'string' ? raw : previewInput(raw, MAX_REJECTED_ARGUMENTS_CHARS);
  return boundInput(scrub ? scrub(text) : text, MAX_REJECTED_ARGUMENTS_CHARS);
}

/** @internal Progress of a live attempt, to `events$` and the caller's `onProgress`. */
export function reportProgress(run: CallState, progress: ToolProgress, attempt: number): void {
  if (run.done) return;
  const scrub = redaction(run);
  let safe = progress;
  if (scrub !== undefined) {
    const clean = redactDeep(progress, scrub);
    safe = typeof clean === 'object' && clean !== null ? (clean as ToolProgress) : { message: REDACTED };
  }
  if (run.parts.events.observed) run.parts.events.next({ type: 'call_progress', ...eventBase(run), progress: safe, attempt });
  const onProgress = run.options.onProgress;
  if (onProgress !== undefined) callSafely(onProgress, { ...safe, callId: run.call.id, tool: toolName(run) }, run.parts.report, 'onProgress', eventBase(run));
}

/** The most characters of JSON a log message carries (a longer one becomes its JSON text, cut). */
const MAX_LOG_DATA_CHARS = 8192;
/** The longest logger name an event carries. */
const MAX_LOGGER_CHARS = 256;

/**
 * Log data as events and callers get it: a fresh JSON value of at most {@link MAX_LOG_DATA_CHARS}
 * characters, or — when longer, cyclic or not serialisable — a text of that size (redacted before
 * the cut, so no part of a secret is left at it).
 */
function boundedLogData(value: unknown): unknown {
  if (typeof value === 'string') return boundInput(value, MAX_LOG_DATA_CHARS);
  const preview = previewInput(value, MAX_LOG_DATA_CHARS + 1);
  if (preview.length > MAX_LOG_DATA_CHARS) return boundInput(preview, MAX_LOG_DATA_CHARS);
  let json: string | undefined;
  try {
    json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return preview;
  }
  if (json === undefined) return null;
  return json.length > MAX_LOG_DATA_CHARS ? boundInput(json, MAX_LOG_DATA_CHARS) : (JSON.parse(json) as unknown);
}

/** @internal A log message of a live attempt, to `events$` and the caller's `onLog`. */
export function reportLog(run: CallState, entry: ToolLogEntry, attempt: number): void {
  const onLog = run.options.onLog;
  if (run.done || (onLog === undefined && !run.parts.events.observed)) return;
  const scrub = redaction(run);
  const data = boundedLogData(scrub ? redactDeep(entry.data, scrub) : entry.data);
  const base = eventBase(run);
  const event: CallLogEvent = { type: 'call_log', ...base, level: entry.level, data, attempt };
  if (entry.logger !== undefined) {
    const logger = String(entry.logger);
    event.logger = boundInput(scrub ? scrub(logger) : logger, MAX_LOGGER_CHARS);
  }
  if (run.parts.events.observed) run.parts.events.next(event);
  if (onLog !== undefined) {
    const log = { level: event.level, data, callId: run.call.id, tool: toolName(run), ...(event.logger !== undefined ? { logger: event.logger } : {}) };
    callSafely(onLog, log, run.parts.report, 'onLog', base);
  }
}

/** @internal `attempt_failed`. */
export function emitAttemptFailed(run: CallState, attempt: Attempt, code: string, message: string): void {
  if (!run.parts.events.observed) return;
  const scrub = redaction(run);
  const text = scrub ? scrub(message) : message;
  run.parts.events.next({
    type: 'attempt_failed',
    ...eventBase(run),
    attempt: attempt.attempt,
    error: { code, message: text },
    durationMs: elapsedSince(attempt.startedAt < 0 ? run.startedAt : attempt.startedAt),
  });
}

/** @internal `retry_scheduled`. */
export function emitRetry(run: CallState, attempt: number, delayMs: number): void {
  if (run.parts.events.observed) run.parts.events.next({ type: 'retry_scheduled', ...eventBase(run), attempt, delayMs });
}

/** @internal The call's one terminal event (the caller checks that `events$` is observed). */
export function emitTerminal(run: CallState, result: ToolResult): void {
  const events = run.parts.events;
  const durationMs = elapsedSince(run.startedAt);
  const attempts = run.attempts;
  if (!result.isError) {
    events.next({ type: 'call_succeeded', ...eventBase(run), result, attempts, durationMs });
    return;
  }
  const error = result.error ?? { code: 'EXECUTION_FAILED', message: result.forLLM };
  if (run.endKind === End.TimedOut && error.code === 'TIMEOUT') {
    events.next({ type: 'call_timed_out', ...eventBase(run), timeoutMs: run.settings?.timeoutMs ?? 0, attempts, durationMs });
  } else if (run.endKind === End.Aborted && error.code === 'ABORTED') {
    const reason = run.failure?.abortText ?? '';
    const scrub = redaction(run);
    events.next({ type: 'call_aborted', ...eventBase(run), reason: scrub ? scrub(reason) : reason, attempts, durationMs });
  } else {
    const event: CallFailedEvent = { type: 'call_failed', ...eventBase(run), error, attempts, durationMs };
    const failure = run.failure;
    if (failure !== undefined && 'cause' in failure) {
      const scrub = redaction(run);
      event.cause = scrub ? redactDeep(failure.cause, scrub) : failure.cause;
    }
    events.next(event);
  }
}
