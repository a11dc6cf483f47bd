import type { LogLevel, ToolLogEntry } from './tool-log';
import type { ToolProgress } from './tool-types';

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
}
