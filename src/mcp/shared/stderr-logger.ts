import type { Writable } from 'node:stream';
import type { ToolwrightLogFields, ToolwrightLogger, ToolwrightLogLevel } from '../../model/logger';
import { boundInput } from '../../utils/quote-input';

/** The levels, least severe first. */
const LEVELS: readonly ToolwrightLogLevel[] = ['debug', 'info', 'warn', 'error'];
/** The longest JSON text of one line's fields. */
const MAX_FIELDS_CHARS = 2_000;

/**
 * Options of {@link stderrLogger}.
 *
 * @example
 * stderrLogger({ level: 'debug' });
 */
export interface StderrLoggerOptions {
  /** The least severe level written (default `'info'`). */
  level?: ToolwrightLogLevel | undefined;
  /** Where lines go (default `process.stderr`). */
  stream?: Writable | undefined;
}

/** `fields` as one line of JSON, bounded (a field that cannot be written is described instead). */
function fieldsText(fields: ToolwrightLogFields): string {
  let json: string;
  try {
    json = JSON.stringify(fields) ?? '{}';
  } catch {
    json = `{"fields":"not serialisable"}`;
  }
  return boundInput(json, MAX_FIELDS_CHARS);
}

/** Control characters (line breaks included) as `\uXXXX`: a name a model sent cannot start a line of its own. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A {@link ToolwrightLogger} writing one plain line per entry to stderr —
 * `2026-05-01T10:00:00.000Z toolwright info: MCP connection opened {"event":"mcp_connection_opened",…}` —
 * for processes whose stdout is taken (the stdio MCP server's default logger). For JSON logs, pass pino.
 *
 * @example
 * const logger = stderrLogger({ level: 'debug' });
 * const toolkit = new Toolkit({ logger });
 * await serveMcpStdio(toolkit, { name: 'app', version: '1.0.0', logger });
 */
export function stderrLogger(options: StderrLoggerOptions = {}): ToolwrightLogger {
  const least = LEVELS.indexOf(options.level ?? 'info');
  const stream = options.stream;
  const line =
    (level: ToolwrightLogLevel) =>
    (fields: ToolwrightLogFields, message: string): void => {
      if (LEVELS.indexOf(level) < least) return;
      (stream ?? process.stderr).write(`${new Date().toISOString()} toolwright ${level}: ${oneLine(message)} ${fieldsText(fields)}\n`);
    };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}
