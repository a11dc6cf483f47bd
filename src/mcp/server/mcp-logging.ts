import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  McpError,
  RequestSchema,
  SetLevelRequestSchema,
  type LoggingMessageNotification,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { quoteInput } from '../../utils/quote-input';
import { isLogLevel, LOG_LEVELS, logLevelRank, type LogLevel } from '../../model/tool-emitter';
import type { CallLog } from '../../executor/executor-parts';
import { NotificationPump } from './progress-relay';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type LogParams = LoggingMessageNotification['params'];

/**
 * How many log notifications of one call may wait for the transport (besides the one being
 * written). Beyond it messages are
 * dropped and counted, and once the queue drained the client is told how many (one `warning`):
 * a tool logging in a tight loop to a client that reads slowly costs the server at most this many.
 */
export const LOG_QUEUE_LIMIT = 64;

/**
 * @internal The logging side of one MCP connection (one MCP session): the level the client set
 * with `logging/setLevel` — until then the server's `logLevel` option — and a {@link LogRelay}
 * per call that sends the call's log messages at or above it.
 */
export class McpLogging {
  private level: LogLevel;

  constructor(server: Server, initial: LogLevel) {
    this.level = initial;
    // replaces the SDK's own handler, which keeps levels in a private map by session id and
    // answers an unknown level with an internal error (MCP wants InvalidParams)
    server.setRequestHandler(SetLevelRequestSchema.extend({ params: RequestSchema.shape.params }), (request) => {
      const level = request.params?.level;
      if (!isLogLevel(level)) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid log level ${quoteInput(String(level))}: use one of ${LOG_LEVELS.join(', ')}.`);
      }
      this.level = level;
      return {};
    });
  }

  /** True when messages of `level` go to the client. */
  wants(level: LogLevel): boolean {
    return logLevelRank(level) >= logLevelRank(this.level);
  }
}

/**
 * @internal Relays one call's log messages (`onLog`) as `notifications/message` related to the
 * call's request (over HTTP: on the request's own SSE stream), in turn ({@link NotificationPump}).
 * At most {@link LOG_QUEUE_LIMIT} wait; later ones are dropped and counted, and the count is sent
 * once the queue drained.
 */
export class LogRelay extends NotificationPump<LogParams> {
  private readonly queue: LogParams[] = [];
  private dropped = 0;

  constructor(
    private readonly logging: McpLogging,
    extra: Extra,
    response?: ServerResponse,
  ) {
    super(extra, response);
  }

  /** Queues a message the client wants (the caller checked its level). */
  report(log: CallLog): void {
    if (this.queue.length >= LOG_QUEUE_LIMIT) {
      this.dropped++;
      return;
    }
    this.queue.push(log.logger === undefined ? { level: log.level, data: log.data } : { level: log.level, logger: log.logger, data: log.data });
    this.start();
  }

  protected next(): LogParams | undefined {
    const params = this.queue.shift();
    if (params !== undefined || this.dropped === 0) return params;
    const dropped = this.dropped;
    this.dropped = 0;
    if (!this.logging.wants('warning')) return undefined;
    return { level: 'warning', logger: 'toolwright', data: `${dropped} log message(s) of this call were dropped: they came faster than the client read them.` };
  }

  protected send(params: LogParams): Promise<void> {
    return this.extra.sendNotification({ method: 'notifications/message', params });
  }
}
