import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { quoteInput } from '../../utils/quote-input';
import { ToolkitError } from '../../errors';
import { checkedEventStoreLimits, McpEventStores, type EventStoreBounds, type McpEventStoreLimits } from './mcp-event-store';

/**
 * Resumable Streamable HTTP streams (SEP-1699), `resumability` of `McpHttpOptions`: every
 * message sent on an SSE stream is kept in an event store under an event id; each POST stream
 * opens with a priming event (an id and the `retry` delay); a client whose stream broke, or that
 * a tool let go mid-call (`ToolEmitter.closeStream()`), reconnects with `GET` and `Last-Event-ID`
 * and receives what it missed, then the rest. The limits bound the built-in in-memory store
 * (see {@link McpEventStoreLimits} for what a late reconnect gets); `eventStore` replaces it.
 * Priming and closing streams need a client on protocol 2025-11-25 or later (older clients cannot
 * read an empty event): for others the stream behaves as without resumability. Needs
 * `@modelcontextprotocol/sdk` 1.30 or later (`INVALID_OPTIONS` on older ones).
 *
 * @example
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', resumability: { retryIntervalMs: 2_000, maxEventsPerSession: 500 } });
 */
export interface McpResumabilityOptions extends McpEventStoreLimits {
  /**
   * The `retry` field of each priming event: how long a client waits before reconnecting, in ms
   * (default 1,000; a whole number >= 0).
   */
  retryIntervalMs?: number | undefined;
  /**
   * Your own event store (e.g. on Redis, to resume on another instance), made once per MCP
   * session: the SDK names streams per session (the `GET` stream of every session is
   * `_GET_stream`), so a store shared by sessions would replay one session's events to another.
   * It must implement `getStreamIdForEventId` and answer `undefined` for ids it did not issue.
   * The limits above do not apply to it. Default: the built-in in-memory store.
   */
  eventStore?: ((sessionId: string) => EventStore) | undefined;
}

/** Default of {@link McpResumabilityOptions.retryIntervalMs}. */
const DEFAULT_RETRY_INTERVAL_MS = 1_000;
/** The first SDK that keeps what is sent while a call's stream is closed (1.29 drops it, and the response throws). */
const LOWEST_RESUMABLE_SDK = [1, 30] as const;

/** The version of the `@modelcontextprotocol/sdk` that `require` loads, when its package.json can be read (not in a bundle). */
function loadedSdkVersion(): string | undefined {
  let dir = path.dirname(require.resolve('@modelcontextprotocol/sdk/server/streamableHttp.js'));
  for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@modelcontextprotocol/sdk' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no (readable) package.json in this folder: look further up
    }
  }
  return undefined;
}

/**
 * @internal Throws `INVALID_OPTIONS` when SDK `version` is older than 1.30, which drops the
 * messages sent while a stream is closed; an unknown version passes.
 */
export function checkResumableSdk(version: string | undefined): void {
  const [major = 0, minor = 0] = (version ?? '').split('.').map(Number);
  if (version === undefined || major !== LOWEST_RESUMABLE_SDK[0] || minor >= LOWEST_RESUMABLE_SDK[1]) return;
  throw new ToolkitError(
    'INVALID_OPTIONS',
    `MCP HTTP option resumability needs @modelcontextprotocol/sdk ${LOWEST_RESUMABLE_SDK.join('.')} or later, but ${version} is installed: ` +
      'it drops the messages sent while a stream is closed, so a reconnect would miss them. ' +
      `Update it (npm install @modelcontextprotocol/sdk@^${LOWEST_RESUMABLE_SDK.join('.')}) or leave resumability off.`,
  );
}

function describeMs(ms: number): string {
  if (ms === Number.POSITIVE_INFINITY) return 'without a time limit';
  return ms % 60_000 === 0 ? `${ms / 60_000} minute(s)` : `${ms} ms`;
}

/** @internal The `resumability` option, defaults applied; throws `INVALID_OPTIONS` for invalid values. */
export function checkedResumability(options: true | McpResumabilityOptions): {
  retryIntervalMs: number;
  eventStore: ((sessionId: string) => EventStore) | undefined;
  bounds: EventStoreBounds;
} {
  const { retryIntervalMs = DEFAULT_RETRY_INTERVAL_MS, eventStore, ...limits } = options === true ? {} : options;
  if (!Number.isInteger(retryIntervalMs) || retryIntervalMs < 0) {
    throw new ToolkitError('INVALID_OPTIONS', `MCP HTTP resumability option retryIntervalMs must be a whole number >= 0, got ${String(retryIntervalMs)}.`);
  }
  if (eventStore !== undefined && typeof eventStore !== 'function') {
    throw new ToolkitError('INVALID_OPTIONS', 'MCP HTTP resumability option eventStore must be a function (sessionId) => EventStore, made once per session.');
  }
  const bounds = checkedEventStoreLimits(limits);
  checkResumableSdk(loadedSdkVersion());
  return { retryIntervalMs, eventStore, bounds };
}

/**
 * @internal The resumability of one HTTP handler: the event store of each session, the refusal
 * of a `Last-Event-ID` the built-in store does not know for the session, and the release of a
 * session's events when it closes.
 */
export class McpHttpResumability {
  private readonly retryIntervalMs: number;
  private readonly factory: ((sessionId: string) => EventStore) | undefined;
  private readonly stores: McpEventStores | undefined;
  private readonly describeBounds: string;

  constructor(options: true | McpResumabilityOptions) {
    const { retryIntervalMs, eventStore, bounds } = checkedResumability(options);
    this.retryIntervalMs = retryIntervalMs;
    this.factory = eventStore;
    this.describeBounds = `events are kept ${describeMs(bounds.eventTtlMs)}, at most ${bounds.maxEventsPerSession} per session`;
    this.stores = eventStore ? undefined : new McpEventStores(bounds);
  }

  /** The events the built-in store keeps (none with a custom store). */
  get stats(): { readonly events: number; readonly bytes: number } {
    return this.stores?.stats ?? { events: 0, bytes: 0 };
  }

  /** The transport options of session `sessionId`. */
  transportOptions(sessionId: string): { eventStore: EventStore; retryInterval: number } {
    return { eventStore: this.factory ? this.factory(sessionId) : this.stores!.forSession(sessionId), retryInterval: this.retryIntervalMs };
  }

  /** Why a request of session `sessionId` cannot resume (a `GET` with a `Last-Event-ID` the session does not have), if it cannot. */
  refusal(req: IncomingMessage, sessionId: string): string | undefined {
    if (req.method !== 'GET' || !this.stores) return undefined;
    const header = req.headers['last-event-id'];
    const lastEventId = Array.isArray(header) ? header[0] : header;
    if (lastEventId === undefined || lastEventId === '' || this.stores.knows(sessionId, lastEventId)) return undefined;
    return (
      `Cannot resume after Last-Event-ID ${quoteInput(lastEventId, 100)}: this session has no such event (${this.describeBounds}; ` +
      'older ones are dropped first, and ids of other sessions are unknown here). What followed it cannot be replayed: ' +
      'open the stream again without Last-Event-ID, and repeat any request whose response did not arrive.'
    );
  }

  /** Forgets session `sessionId`'s events (the built-in store; a custom store is the application's). */
  release(sessionId: string): void {
    this.stores?.release(sessionId);
  }
}
