import { ToolkitError } from '../errors';
import { boundInput } from '../utils/quote-input';

/**
 * The levels toolwright logs at, least severe first.
 *
 * @example
 * const level: ToolwrightLogLevel = 'warn';
 */
export type ToolwrightLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The structured part of one log line: ids, names, codes, durations (never arguments, results or preset values). */
export type ToolwrightLogFields = Readonly<Record<string, unknown>>;

/**
 * Where toolwright writes what it does (the `logger` option of `new Toolkit`, `createMcpServer`,
 * `serveMcpStdio`, `serveMcpHttp`, `ApprovalManager`, `createToolWorker`, `queueTools`,
 * `ToolwrightModule.forRoot`):
 * any object with `debug`, `info`, `warn` and `error` methods. Each is called as
 * `logger.info(fields, message)`: pino's (and bunyan's) order, where `fields` become properties of
 * the JSON line and `message` its `msg`; `console` prints both (the fields object, then the text).
 * A logger that throws is ignored: it never fails a call. Without a logger, nothing is logged
 * and no work is done for logging.
 *
 * @example
 * import pino from 'pino';
 * const toolkit = new Toolkit({ logger: pino({ level: 'debug' }) });
 * // or: new Toolkit({ logger: console })
 */
export interface ToolwrightLogger {
  /** Registrations, each call's start and end, retries. */
  debug(fields: ToolwrightLogFields, message: string): void;
  /** Approvals requested and decided, MCP connections opened and closed, workers started. */
  info(fields: ToolwrightLogFields, message: string): void;
  /** Failed, timed-out calls; refused requests; failed jobs; throwing callbacks. */
  warn(fields: ToolwrightLogFields, message: string): void;
  /** Faults of toolwright's own machinery (a worker that cannot reach Redis…). */
  error(fields: ToolwrightLogFields, message: string): void;
}

/** The longest model- or client-sent text (a tool name, a call id) a log line quotes. */
const MAX_LOGGED_CHARS = 100;

/**
 * @internal `text` cut to {@link MAX_LOGGED_CHARS} (with `…`), so a hostile name never grows a log line.
 *
 * @example
 * loggedText('x'.repeat(1e6)).length; // 100
 */
export function loggedText(text: string): string {
  return boundInput(text, MAX_LOGGED_CHARS);
}

/**
 * @internal Writes one line to `logger`, swallowing whatever the logger throws: a broken logger
 * must not fail the call, the request or the job being logged.
 */
export function writeLog(logger: ToolwrightLogger, level: ToolwrightLogLevel, fields: ToolwrightLogFields, message: string): void {
  try {
    logger[level](fields, message);
  } catch {
    // a logger's own failure has nowhere safer to go
  }
}

/**
 * @internal The logger an options object names: `undefined` when it names none (or `false`).
 *
 * @throws ToolkitError `INVALID_OPTIONS` naming `where` when `logger` lacks one of the four methods.
 */
export function checkedLogger(logger: ToolwrightLogger | false | undefined, where: string): ToolwrightLogger | undefined {
  if (logger === undefined || logger === false) return undefined;
  const missing = (['debug', 'info', 'warn', 'error'] as const).filter((level) => typeof (logger as Partial<ToolwrightLogger> | null)?.[level] !== 'function');
  if (missing.length > 0) {
    throw new ToolkitError('INVALID_OPTIONS', `${where}: logger must have debug, info, warn and error methods (pino, console…); it lacks ${missing.join(', ')}.`);
  }
  return logger;
}
