import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ToolExecutionContext } from '../../../model/execution-context';
import type { ClientRequestHandler } from '../../../model/client-requests';
import type { ToolResult } from '../../../model/tool-types';
import type { LogLevel } from '../../../model/tool-emitter';
import type { CallLog, CallOptions } from '../../../executor/executor-parts';
import type { Toolkit } from '../../../toolkit/toolkit';
import type { ToolView } from '../../../toolkit/tool-view';
import { failedCallResult, toCallToolResult } from '../call-result';
import type { McpToolList } from '../mcp-tool-list';
import { ProgressRelay, type NotificationSender } from '../progress-relay';

/** The most log messages of one call waiting to be written; more are dropped (and counted). */
const LOG_QUEUE_LIMIT = 64;

/**
 * Relays a call's log messages as `notifications/message` through the SDK's per-request `log`,
 * which sends only at or above the level the request's `_meta` names (none without one). At most
 * {@link LOG_QUEUE_LIMIT} wait; the rest are dropped, and the drop reported once.
 */
class ModernLogRelay {
  private pending = 0;
  private dropped = 0;
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: ServerContext) {}

  readonly report = (log: CallLog): void => {
    if (this.pending >= LOG_QUEUE_LIMIT) {
      this.dropped++;
      return;
    }
    this.send(log.level, log.data, log.logger);
  };

  /** Resolves once every accepted message was written (with a note of how many were dropped). */
  async flush(): Promise<void> {
    if (this.dropped > 0) {
      const dropped = this.dropped;
      this.dropped = 0;
      this.send('warning', `${dropped} log message(s) of this call were dropped: they came faster than the client read them.`, 'toolwright');
    }
    await this.last;
  }

  private send(level: LogLevel, data: unknown, logger: string | undefined): void {
    this.pending++;
    this.last = this.last
      .then(() => this.ctx.mcpReq.log(level, data, logger))
      .catch(() => undefined)
      .finally(() => this.pending--);
  }
}

/** @internal What one 2026-07-28 `tools/call` runs with. */
export interface ModernCall {
  readonly toolkit: Toolkit;
  /** The caller's view: the gate of every door (direct call, meta tools, skills) is its. */
  readonly view: ToolView;
  /** The list whose output shapes call results are checked against. */
  readonly list: McpToolList;
  /** The call-level context (the `context` option's objects and the caller's principal). */
  readonly context: ToolExecutionContext | undefined;
}

/** @internal What one round of a call runs with: the handler that replays the client's answers, and the signal that ends the round. */
export interface ModernRound {
  readonly client: ClientRequestHandler;
  readonly signal: AbortSignal;
  /** Sees the toolkit's result before it becomes an MCP result. */
  readonly onResult?: ((result: ToolResult) => void) | undefined;
}

/**
 * @internal Runs one 2026-07-28 `tools/call` round through the caller's view: the round's signal
 * (which the request's feeds) reaches the tool, progress goes to the request's `progressToken`,
 * log messages at the request's log level, requests to the client through the round's handler
 * (Multi Round-Trip Requests, see `McpRoundTrips`); every fault is an `isError` result (a tool
 * that is off for the caller included), never a JSON-RPC error.
 */
export async function callModernTool(call: ModernCall, name: string, args: Record<string, unknown>, ctx: ServerContext, round: ModernRound): Promise<CallToolResult> {
  const options: CallOptions = { signal: round.signal, client: round.client };
  if (call.context) options.context = call.context;
  const token = ctx.mcpReq._meta?.progressToken;
  const sender: NotificationSender = { sendNotification: (notification) => ctx.mcpReq.notify(notification) };
  const progress = typeof token === 'string' || typeof token === 'number' ? new ProgressRelay(token, sender) : undefined;
  if (progress) options.onProgress = progress.report;
  const logs = new ModernLogRelay(ctx);
  options.onLog = logs.report;
  try {
    const result = await call.view.callTool({ id: `mcp_${randomUUID()}`, name, arguments: args }, options);
    round.onResult?.(result);
    await Promise.all([progress?.flush(), logs.flush()]);
    const tool = result.isError ? undefined : call.toolkit.getTool(name);
    return toCallToolResult(result, tool ? call.list.shapeOf(tool) : undefined, name);
  } catch (error) {
    return failedCallResult(name, error);
  }
}
