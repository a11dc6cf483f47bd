import type { RepairChange } from '../model/repair-types';
import type { LogLevel } from '../model/tool-emitter';
import type { ToolProgress, ToolResult, ToolResultError } from '../model/tool-types';

/** Fields every call event has. */
export interface ToolCallEventBase {
  /** The call's id. */
  callId: string;
  /** The tool's name. */
  tool: string;
  /** The session the call belongs to, if any. */
  sessionId?: string;
  /** When the event happened (ms since the epoch). */
  timestamp: number;
}

/**
 * The first event of every call: exactly one per call, before any other event of the call and
 * before its one terminal event (`call_succeeded`, `call_failed`, `call_timed_out`, `call_aborted`).
 *
 * - A call that runs: emitted when its first attempt is about to run; `arguments` are the
 *   validated model arguments (after `null` → absent and hook rewrites).
 * - A call that ends before (unknown or disabled tool, malformed or invalid arguments, denied or
 *   answered by a hook, aborted): emitted just before its terminal event, stamped with the time
 *   the call was made; `arguments` are what the model sent (after hook rewrites, when the hooks
 *   ran), a value sent for a preset parameter shown as `'[REDACTED]'`. Arguments that are not one
 *   JSON object, or whose JSON is longer than 4096 characters, come as `rawArguments` instead (the
 *   text cut to 4096 characters) and `arguments` is `{}`.
 *
 * Never holds preset values.
 */
export interface CallStartedEvent extends ToolCallEventBase {
  type: 'call_started';
  /** The model's arguments (validated, for a call that runs), preset values redacted. */
  arguments: Record<string, unknown>;
  /**
   * Only for a call rejected before it started whose arguments are not one JSON object (malformed
   * JSON, an array…) or too long to echo whole: the text the model sent, redacted, at most 4096 characters.
   */
  rawArguments?: string;
}

/**
 * The toolkit repaired the call's arguments (`repair: 'safe'`): emitted right after its
 * `call_started` (whose `arguments` are the repaired ones for a call that runs). The tool, the
 * hooks and approval all see the repaired arguments. Values are redacted as in `call_started`.
 *
 * @example
 * toolkit.events$.pipe(filter((e) => e.type === 'call_repaired')).subscribe((e) => metrics.repaired(e.tool, e.changes.map((c) => c.kind)));
 */
export interface CallRepairedEvent extends ToolCallEventBase {
  type: 'call_repaired';
  /** Each change, in the order made (a `json_syntax` rewrite first). */
  changes: RepairChange[];
}

/** A running tool reported progress (`ToolEmitter.emit`, `ctx.emit`, or an async generator's yield). */
export interface CallProgressEvent extends ToolCallEventBase {
  type: 'call_progress';
  /** What the tool reported (preset values redacted). */
  progress: ToolProgress;
  /** The attempt that reported it (1 unless retried). */
  attempt: number;
}

/**
 * A running tool logged a message (`ToolEmitter.log`, `ctx.log`). Over MCP the same message goes
 * to the client as a `notifications/message` when its level is at or above the session's.
 *
 * @example
 * toolkit.events$.pipe(filter((e) => e.type === 'call_log')).subscribe((e) => logger.log(e.level, e.data, { tool: e.tool }));
 */
export interface CallLogEvent extends ToolCallEventBase {
  type: 'call_log';
  /** How severe it is. */
  level: LogLevel;
  /** What the tool logged: preset values redacted; longer than 8 KiB of JSON, its JSON text cut. */
  data: unknown;
  /** The logger the tool named, if any. */
  logger?: string;
  /** The attempt that logged it (1 unless retried). */
  attempt: number;
}

/** One attempt threw or timed out. A `retry_scheduled` follows when another attempt will run. */
export interface AttemptFailedEvent extends ToolCallEventBase {
  type: 'attempt_failed';
  /** The attempt that failed (1-based). */
  attempt: number;
  /** Why it failed (`EXECUTION_FAILED`, `TIMEOUT`, `CONTEXT_MISSING`). */
  error: ToolResultError;
  /** How long the attempt ran. */
  durationMs: number;
}

/** Another attempt will run after `delayMs` (exponential backoff with jitter). */
export interface RetryScheduledEvent extends ToolCallEventBase {
  type: 'retry_scheduled';
  /** The attempt that will run (2, 3…). */
  attempt: number;
  /** The backoff before it. */
  delayMs: number;
}

/** Terminal: the call produced a result (`async: true` when it goes on in the background). */
export interface CallSucceededEvent extends ToolCallEventBase {
  type: 'call_succeeded';
  /** The result the caller gets (preset values redacted). */
  result: ToolResult;
  /** Attempts made, the successful one included. */
  attempts: number;
  /** From the call to its result. */
  durationMs: number;
}

/** Terminal: the call failed (unknown tool, disabled, invalid arguments, thrown error, denied…). */
export interface CallFailedEvent extends ToolCallEventBase {
  type: 'call_failed';
  /** The error the caller's result carries. */
  error: ToolResultError;
  /**
   * What the tool threw, when it threw (preset values redacted: Errors, Maps and Sets holding one
   * are redacted copies, other objects holding one become `'[REDACTED]'`).
   */
  cause?: unknown;
  /** Attempts made (0 when the tool never ran). */
  attempts: number;
  /** From the call to its result. */
  durationMs: number;
}

/** Terminal: the last attempt ran out of time; the tool's signal was aborted. */
export interface CallTimedOutEvent extends ToolCallEventBase {
  type: 'call_timed_out';
  /** The per-attempt timeout that expired. */
  timeoutMs: number;
  /** Attempts made. */
  attempts: number;
  /** From the call to its result. */
  durationMs: number;
}

/** Terminal: the caller's signal aborted the call (or was aborted before it started). */
export interface CallAbortedEvent extends ToolCallEventBase {
  type: 'call_aborted';
  /** The signal's reason, as text. */
  reason: string;
  /** Attempts started (0 when the tool never ran). */
  attempts: number;
  /** From the call to its result. */
  durationMs: number;
}

/**
 * A call that answered with an async result completed its background work (an `AsyncTool`'s
 * callback, or `AsyncCompletion.complete()`/`fail()` of a decorated tool). Comes after the call's
 * terminal event; the caller's `onAsyncComplete` receives the same `result`.
 */
export interface AsyncCompletedEvent extends ToolCallEventBase {
  type: 'async_completed';
  /** The completion (`async: false`, `toolCallId` = the call id, preset values redacted). */
  result: ToolResult;
}

/** The set of active tools changed (in the toolkit or one session). */
export interface ToolsChangedEvent {
  type: 'tools_changed';
  sessionId?: string;
  tools: string[];
  timestamp: number;
}

/** Groups were switched on or off. */
export interface GroupsChangedEvent {
  type: 'groups_changed';
  sessionId?: string;
  activeGroups: string[];
  timestamp: number;
}

/**
 * A skill was activated or deactivated in a view (the toolkit's, or one session's). Switching
 * from one skill to another is one event with both names.
 *
 * @example
 * toolkit.events$.pipe(filter((e) => e.type === 'skill_changed')).subscribe((e) => log(e.sessionId, e.previous, '->', e.skill));
 */
export interface SkillChangedEvent {
  type: 'skill_changed';
  sessionId?: string;
  /** The skill now active (absent: none). */
  skill?: string;
  /** The skill active before (absent: none). */
  previous?: string;
  timestamp: number;
}

/**
 * A user callback threw: a subscriber of `events$`, `activeTools$`, `availability$` or
 * `activeSkill$`, or a call's `onProgress` / `onAsyncComplete`. The callback's failure never
 * reaches the call (it still returns its result) nor the process (no `uncaughtException`).
 * A subscriber that throws on this event too is not told again.
 *
 * @example
 * toolkit.events$.pipe(filter((e) => e.type === 'callback_failed')).subscribe((e) => log.error(e.source, e.error));
 */
export interface CallbackFailedEvent {
  type: 'callback_failed';
  /** Where the callback was given: `'events$'`, `'activeTools$'`, `'onProgress'`, `'onAsyncComplete'`… */
  source: string;
  /** What it threw. */
  error: unknown;
  /** The call the callback was given for (`onProgress`, `onAsyncComplete`). */
  callId?: string;
  /** That call's tool. */
  tool?: string;
  /** That call's session. */
  sessionId?: string;
  timestamp: number;
}

/**
 * Everything `toolkit.events$` emits, discriminated by `type`. Events never carry preset values.
 *
 * Each call emits, in order: `call_started` (unless it failed before running), `call_repaired` when
 * its arguments were repaired, any number of
 * `call_progress` and `call_log`, for each failed attempt `attempt_failed` (then `retry_scheduled` when another
 * attempt follows), and exactly one terminal event: `call_succeeded`, `call_failed`,
 * `call_timed_out` or `call_aborted`. An async result may later add `async_completed`.
 *
 * @example
 * toolkit.events$.pipe(filter((e) => e.type === 'call_timed_out')).subscribe((e) => metrics.timeout(e.tool));
 */
export type ToolEvent =
  | CallStartedEvent
  | CallRepairedEvent
  | CallProgressEvent
  | CallLogEvent
  | AttemptFailedEvent
  | RetryScheduledEvent
  | CallSucceededEvent
  | CallFailedEvent
  | CallTimedOutEvent
  | CallAbortedEvent
  | AsyncCompletedEvent
  | ToolsChangedEvent
  | GroupsChangedEvent
  | SkillChangedEvent
  | CallbackFailedEvent;

/** The `type` of a {@link ToolEvent}. */
export type ToolEventType = ToolEvent['type'];
