import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { EmptyResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CallProgress } from '../executor/call-executor';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Relays a call's `ToolEmitter` progress as `notifications/progress` for one request. MCP wants
 * `progress` to increase with every notification: a tool's own value is used when it does,
 * otherwise the previous value plus one (and then no `total`, which would no longer match).
 */
export class ProgressRelay {
  private last: number | undefined;
  private pending: Promise<void>[] = [];

  constructor(
    private readonly token: string | number,
    private readonly extra: Extra,
  ) {}

  /** The `onProgress` of the call. */
  readonly report = (report: CallProgress): void => {
    const own = report.progress;
    const useOwn = typeof own === 'number' && Number.isFinite(own) && (this.last === undefined || own > this.last);
    const progress = useOwn ? own : this.last === undefined ? 1 : this.last + 1;
    this.last = progress;
    const params: ProgressParams = { progressToken: this.token, progress };
    if (useOwn && typeof report.total === 'number') params.total = report.total;
    if (report.message !== undefined) params.message = report.message;
    this.pending.push(this.extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined));
  };

  /**
   * Waits until every notification is written, then (with `barrier`) pings the client: the SDK
   * client handles notifications a microtask later than responses, so progress sharing a stdio
   * chunk with the response would be dropped; after the pong the response goes in a later chunk.
   */
  async flush(barrier: boolean): Promise<void> {
    if (!this.pending.length) return;
    await Promise.all(this.pending);
    if (barrier) await this.extra.sendRequest({ method: 'ping' }, EmptyResultSchema, { timeout: 1_000 }).catch(() => undefined);
  }
}
