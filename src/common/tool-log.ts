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
