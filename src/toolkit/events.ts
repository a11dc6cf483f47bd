import type { ToolProgress, ToolResult, ToolResultError } from '../common/tool-types';

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

/** A call passed validation and is about to run. `arguments` are the model's (never preset values). */
export interface CallStartedEvent extends ToolCallEventBase {
  type: 'call_started';
  arguments: Record<string, unknown>;
}

/** A running tool reported progress. */
export interface CallProgressEvent extends ToolCallEventBase {
  type: 'call_progress';
  progress: ToolProgress;
}

/** One attempt failed (a retry may follow). */
export interface AttemptFailedEvent extends ToolCallEventBase {
  type: 'attempt_failed';
  attempt: number;
  error: ToolResultError;
  durationMs: number;
}

/** Another attempt will run after `delayMs`. */
export interface RetryScheduledEvent extends ToolCallEventBase {
  type: 'retry_scheduled';
  attempt: number;
  delayMs: number;
}

/** The call produced a result. */
export interface CallSucceededEvent extends ToolCallEventBase {
  type: 'call_succeeded';
  result: ToolResult;
  attempts: number;
  durationMs: number;
}

/** The call failed (unknown tool, disabled, invalid arguments, thrown error, denied…). */
export interface CallFailedEvent extends ToolCallEventBase {
  type: 'call_failed';
  error: ToolResultError;
  /** What the tool threw, when it threw (redacted of preset values when it is an Error). */
  cause?: unknown;
  attempts: number;
  durationMs: number;
}

/** The call ran out of time; the tool's signal was aborted. */
export interface CallTimedOutEvent extends ToolCallEventBase {
  type: 'call_timed_out';
  timeoutMs: number;
  attempts: number;
  durationMs: number;
}

/** The caller aborted the call. */
export interface CallAbortedEvent extends ToolCallEventBase {
  type: 'call_aborted';
  reason: string;
  durationMs: number;
}

/** An async tool completed its background work. */
export interface AsyncCompletedEvent extends ToolCallEventBase {
  type: 'async_completed';
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
 * Everything `toolkit.events$` emits, discriminated by `type`. Events never carry preset values.
 */
export type ToolEvent =
  | CallStartedEvent
  | CallProgressEvent
  | AttemptFailedEvent
  | RetryScheduledEvent
  | CallSucceededEvent
  | CallFailedEvent
  | CallTimedOutEvent
  | CallAbortedEvent
  | AsyncCompletedEvent
  | ToolsChangedEvent
  | GroupsChangedEvent;

/** The `type` of a {@link ToolEvent}. */
export type ToolEventType = ToolEvent['type'];
