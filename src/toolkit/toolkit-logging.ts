import type { Observable, Subscription } from 'rxjs';
import { loggedText, writeLog, type ToolwrightLogFields, type ToolwrightLogger, type ToolwrightLogLevel } from '../model/logger';
import type { LogLevel } from '../model/tool-emitter';
import { describeThrown } from '../errors/toolkit-error';
import type { ToolCallEventBase, ToolEvent } from '../executor/event-types';

/** The longest text of a throwing callback's error that a log line keeps. */
const MAX_ERROR_CHARS = 200;

/** A tool's own log level (`ToolEmitter.log`, MCP's eight) as one of the logger's four. */
function loggerLevel(level: LogLevel): ToolwrightLogLevel {
  if (level === 'debug') return 'debug';
  if (level === 'info' || level === 'notice') return 'info';
  return level === 'warning' ? 'warn' : 'error';
}

/** The fields every call's lines have: ids and names only, cut to a bounded length. */
function callFields(event: ToolCallEventBase): Record<string, unknown> {
  return {
    event: (event as ToolEvent).type,
    callId: loggedText(event.callId),
    tool: loggedText(event.tool),
    ...(event.sessionId !== undefined ? { sessionId: loggedText(event.sessionId) } : {}),
  };
}

/**
 * One event as a log line: its level, fields and message, or `undefined` for events not logged
 * (progress reports, the active-tools list). Arguments, results and errors' messages are never
 * part of a line; a tool's own log message (`ToolEmitter.log`) is, as redacted on `events$`.
 */
function lineOf(event: ToolEvent): [ToolwrightLogLevel, ToolwrightLogFields, string] | undefined {
  switch (event.type) {
    case 'call_started':
      return ['debug', callFields(event), `call ${loggedText(event.tool)} started`];
    case 'call_repaired':
      return ['debug', { ...callFields(event), repairs: event.changes.map((c) => c.kind) }, `call ${loggedText(event.tool)} repaired`];
    case 'call_log':
      return [loggerLevel(event.level), { ...callFields(event), toolLevel: event.level, ...(event.logger !== undefined ? { logger: loggedText(event.logger) } : {}), data: event.data }, `tool ${loggedText(event.tool)} logged`];
    case 'attempt_failed':
      return ['debug', { ...callFields(event), attempt: event.attempt, code: event.error.code, durationMs: event.durationMs }, `call ${loggedText(event.tool)} attempt ${event.attempt} failed: ${event.error.code}`];
    case 'retry_scheduled':
      return ['debug', { ...callFields(event), attempt: event.attempt, delayMs: event.delayMs }, `call ${loggedText(event.tool)} retries in ${event.delayMs} ms`];
    case 'call_succeeded':
      return ['debug', { ...callFields(event), attempts: event.attempts, durationMs: event.durationMs, async: event.result.async }, `call ${loggedText(event.tool)} succeeded in ${event.durationMs} ms`];
    case 'call_failed':
      return ['warn', { ...callFields(event), code: event.error.code, attempts: event.attempts, durationMs: event.durationMs }, `call ${loggedText(event.tool)} failed: ${event.error.code} (${event.durationMs} ms)`];
    case 'call_timed_out':
      return ['warn', { ...callFields(event), code: 'TIMEOUT', timeoutMs: event.timeoutMs, attempts: event.attempts, durationMs: event.durationMs }, `call ${loggedText(event.tool)} timed out after ${event.timeoutMs} ms`];
    case 'call_aborted':
      return ['debug', { ...callFields(event), code: 'ABORTED', attempts: event.attempts, durationMs: event.durationMs }, `call ${loggedText(event.tool)} aborted (${event.durationMs} ms)`];
    case 'async_completed':
      return ['debug', { ...callFields(event), isError: event.result.isError, ...(event.result.error ? { code: event.result.error.code } : {}) }, `call ${loggedText(event.tool)} completed in the background`];
    case 'groups_changed':
      return ['debug', { event: event.type, activeGroups: event.activeGroups, ...(event.sessionId !== undefined ? { sessionId: loggedText(event.sessionId) } : {}) }, 'active groups changed'];
    case 'skill_changed':
      return ['debug', { event: event.type, skill: event.skill ?? null, previous: event.previous ?? null, ...(event.sessionId !== undefined ? { sessionId: loggedText(event.sessionId) } : {}) }, `skill ${event.skill ?? '(none)'} active`];
    case 'callback_failed': {
      const fields = { event: event.type, source: event.source, error: describeThrown(event.error).slice(0, MAX_ERROR_CHARS), ...(event.callId !== undefined ? { callId: loggedText(event.callId) } : {}), ...(event.tool !== undefined ? { tool: loggedText(event.tool) } : {}) };
      return ['warn', fields, `a callback given to ${event.source} threw`];
    }
    default:
      return undefined; // call_progress, tools_changed: too frequent to be worth a line
  }
}

/**
 * @internal Writes the toolkit's events to `logger` (see {@link lineOf} for what is logged at
 * which level). Subscribed only when the toolkit has a logger: without one, no event is even made.
 */
export function logToolkitEvents(events: Observable<ToolEvent>, logger: ToolwrightLogger): Subscription {
  return events.subscribe((event) => {
    const line = lineOf(event);
    if (line !== undefined) writeLog(logger, ...line);
  });
}
