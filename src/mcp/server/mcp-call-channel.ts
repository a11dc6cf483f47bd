import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { EmptyResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { LogLevel } from '../../model/tool-emitter';
import type { CallLog, CallOptions } from '../../executor/executor-parts';
import { DEFAULT_CLIENT_REQUEST_TIMEOUT_MS, McpClientLink, McpClientRequests } from './mcp-client-requests';
import { LogRelay, McpLogging } from './mcp-logging';
import { ProgressRelay } from './progress-relay';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** @internal What {@link McpCallChannels} reads of the server's options. */
export interface McpChannelSettings {
  /** The level of log messages sent until the client sets one (default `'info'`). */
  readonly logLevel?: LogLevel | undefined;
  /** How long a tool's request to the client may wait for its answer. */
  readonly clientRequestTimeoutMs?: number | undefined;
}

/**
 * @internal What one MCP connection gives each `tools/call` besides the toolkit call itself: the
 * relays of its progress and log messages (notifications related to the request) and the handler
 * of its requests to the client (sampling, elicitation).
 */
export class McpCallChannels {
  private readonly logging: McpLogging;
  private readonly link: McpClientLink;

  constructor(server: Server, settings: McpChannelSettings) {
    this.logging = new McpLogging(server, settings.logLevel ?? 'info');
    this.link = new McpClientLink(server, settings.clientRequestTimeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS);
  }

  /** Sets the call's `onProgress` (when the client sent a progress token), `onLog` and `client`. */
  open(options: CallOptions, extra: Extra, token: string | number | undefined, response: ServerResponse | undefined): McpCallChannel {
    const progress = token !== undefined ? new ProgressRelay(token, extra, response) : undefined;
    if (progress) options.onProgress = progress.report;
    const channel = new McpCallChannel(this.link, extra, this.logging, progress, response);
    options.onLog = channel.log;
    options.client = channel;
    return channel;
  }
}

/**
 * @internal What one call has of its MCP request: the handler of its requests to the client, and
 * its notifications (progress, log messages at the session's level), to be written before its
 * response. The log relay is made when the first message the client wants arrives.
 */
export class McpCallChannel extends McpClientRequests {
  private logs: LogRelay | undefined;

  constructor(
    link: McpClientLink,
    extra: Extra,
    private readonly logging: McpLogging,
    private readonly progress: ProgressRelay | undefined,
    private readonly response: ServerResponse | undefined,
  ) {
    super(link, extra);
  }

  /** The `onLog` of the call. */
  readonly log = (log: CallLog): void => {
    if (this.logging.wants(log.level)) (this.logs ??= new LogRelay(this.logging, this.extra, this.response)).report(log);
  };

  /** True when the call sent nothing that must reach the client before the response. */
  get idle(): boolean {
    return !this.progress?.sent && this.logs === undefined;
  }

  /**
   * Waits until every notification is written, then (with `barrier`) pings the client: the SDK
   * client handles notifications a microtask later than responses, so a notification sharing a
   * stdio chunk with the response would be dropped; after the pong the response goes in a later chunk.
   */
  async flush(barrier: boolean): Promise<void> {
    await Promise.all([this.progress?.flush(), this.logs?.flush()]);
    if (barrier) await this.extra.sendRequest({ method: 'ping' }, EmptyResultSchema, { timeout: 1_000 }).catch(() => undefined);
  }
}
