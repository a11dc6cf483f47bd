import type { ToolProgress } from './tool-types';

/**
 * The severities a tool may log at, least severe first: the RFC 5424 levels, named as MCP's
 * `logging/setLevel` and `notifications/message` name them.
 *
 * @example
 * LOG_LEVELS.indexOf('warning') > LOG_LEVELS.indexOf('info'); // true
 */
export const LOG_LEVELS = Object.freeze(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const);

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A log message of a running tool (`emitter.log(level, data, logger)`, `ctx.log(…)`).
 *
 * @example
 * const entry: ToolLogEntry = { level: 'info', data: 'fetched 3 pages', logger: 'crawler' };
 */
export interface ToolLogEntry {
  /** How severe it is. */
  readonly level: LogLevel;
  /** What the tool logged: a text or any JSON-serialisable value. */
  readonly data: unknown;
  /** The name of the logger (a component of the tool), when the tool gave one. */
  readonly logger?: string | undefined;
}

/** True when `value` is one of {@link LOG_LEVELS}. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** The rank of `level` in {@link LOG_LEVELS} (0 for `debug`, 7 for `emergency`). */
export function logLevelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/**
 * Streams progress and log messages from a running tool. Declare a parameter of this type (no
 * `@ToolParam`) and the toolkit injects one per call; each `emit` reaches `toolkit.events$` and the
 * caller's `onProgress`, each `log` reaches `toolkit.events$` (`call_log`) and the caller's
 * `onLog` — over MCP a `notifications/message` to the client, at or above the level it set —,
 * both tagged with the call id and redacted of the tool's preset values.
 *
 * @example
 * async importRows(@ToolParam({ name: 'url' }) url: string, emitter: ToolEmitter) {
 *   emitter.emit({ progress: 10, total: 100, message: 'downloading' });
 *   emitter.log('info', { url, rows: 120 }, 'importer');
 * }
 */
export class ToolEmitter {
  constructor(
    private readonly sink: (progress: ToolProgress) => void = () => undefined,
    private readonly logSink: (entry: ToolLogEntry) => void = () => undefined,
    private readonly streamCloser: () => boolean = () => false,
  ) {}

  /** Reports progress (a plain string is taken as the `message`). */
  emit(progress: ToolProgress | string): void {
    this.sink(typeof progress === 'string' ? { message: progress } : progress);
  }

  /**
   * Logs `data` (a text or any JSON-serialisable value, cut to 8 KiB of JSON) at `level`, under
   * `logger` (a component name) when given. Messages logged after the call ended are dropped.
   *
   * @throws ToolkitError `INVALID_OPTIONS` when `level` is not one of `LOG_LEVELS`.
   */
  log(level: LogLevel, data: unknown, logger?: string): void {
    this.logSink(logger === undefined ? { level, data } : { level, data, logger });
  }

  /**
   * Lets the client poll instead of holding a connection open for a long call (MCP SEP-1699):
   * over Streamable HTTP with `resumability` on (and a client on protocol 2025-11-25 or later),
   * ends the call's SSE stream now; the call goes on, what it sends from then on (progress, log
   * messages, the result) is kept for the client, which reconnects after the `retry` delay and
   * receives it. Returns `true` when the stream was closed; elsewhere (stdio, JSON responses, no
   * resumability, an older client, a call not made over MCP) it does nothing and returns `false`.
   *
   * @example
   * emitter.emit({ progress: 1, total: 3, message: 'queued' });
   * emitter.closeStream(); // the client comes back for the rest
   */
  closeStream(): boolean {
    return this.streamCloser();
  }
}
