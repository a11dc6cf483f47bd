import { randomUUID } from 'node:crypto';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolkitError } from '../../errors';

/**
 * The bounds of the built-in in-memory event store of resumable Streamable HTTP streams
 * ({@link McpResumabilityOptions}). Every bound is a whole number >= 1 (or `Infinity`). When a
 * bound is reached the oldest events go first (the session's own for a session bound, any
 * session's for an overall one); an event too large to keep is not kept, and its stream's older
 * events are dropped with it. A reconnect whose `Last-Event-ID` was dropped, expired, or belongs to
 * another session replays nothing and gets HTTP 400 saying so: a client never receives a replay
 * with a silent gap.
 *
 * @example
 * const bounds: McpEventStoreLimits = { maxEventsPerSession: 200, maxBytes: 8 * 1024 * 1024, eventTtlMs: 60_000 };
 */
export interface McpEventStoreLimits {
  /** The most events one session keeps (default 1,000). */
  maxEventsPerSession?: number | undefined;
  /** The most bytes of event JSON one session keeps (default 1 MiB). */
  maxBytesPerSession?: number | undefined;
  /** The most events all sessions of the handler keep together (default 20,000). */
  maxEvents?: number | undefined;
  /** The most bytes of event JSON all sessions of the handler keep together (default 32 MiB). */
  maxBytes?: number | undefined;
  /** How long an event is kept for a reconnect, in ms (default 5 minutes). */
  eventTtlMs?: number | undefined;
}

/** @internal {@link McpEventStoreLimits} checked, defaults applied. */
export type EventStoreBounds = Readonly<Record<keyof McpEventStoreLimits, number>>;

/** The defaults of {@link McpEventStoreLimits}. */
const DEFAULT_LIMITS: EventStoreBounds = Object.freeze({
  maxEventsPerSession: 1_000,
  maxBytesPerSession: 1024 * 1024,
  maxEvents: 20_000,
  maxBytes: 32 * 1024 * 1024,
  eventTtlMs: 5 * 60_000,
});

/** What keeping an event costs besides its JSON (its record, id, index entries), measured: about 250 bytes of heap. */
const EVENT_OVERHEAD_BYTES = 256;

interface StoredEvent {
  readonly id: string;
  readonly session: SessionEvents;
  readonly streamId: string;
  /** The message; emptied when the event is dropped (a queue may still hold the record a while). */
  json: string;
  readonly bytes: number;
  readonly expires: number;
  dropped: boolean;
}

/** Dropped records a queue may hold before it is compacted (also: at most as many as live ones). */
const QUEUE_SLACK = 16;

/**
 * Events oldest first, in an array: a Map would be slower here, as V8 keeps deleted entries in
 * place until it rehashes and iterating from the front walks over all of them. Events dropped
 * elsewhere are skipped when they reach the front; the array is compacted once dropped records
 * outnumber both {@link QUEUE_SLACK} and the live ones.
 */
class EventQueue {
  private items: StoredEvent[] = [];
  private head = 0;
  private dead = 0;

  push(event: StoredEvent): void {
    this.items.push(event);
  }

  /** The oldest live event, if any. */
  oldest(): StoredEvent | undefined {
    while (this.head < this.items.length && this.items[this.head].dropped) {
      this.head++;
      this.dead--;
    }
    if (this.head > QUEUE_SLACK && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return this.items[this.head];
  }

  /** Counts an event of this queue that was dropped (usually the oldest: then it leaves at once). */
  died(): void {
    this.dead++;
    this.oldest();
    if (this.dead > QUEUE_SLACK && this.dead * 2 > this.items.length - this.head) {
      this.items = this.items.slice(this.head).filter((event) => !event.dropped);
      this.head = 0;
      this.dead = 0;
    }
  }
}

/** `value` when it is a whole number >= 1 or `Infinity`; throws `INVALID_OPTIONS` otherwise. */
function checkedBound(name: string, value: number): number {
  if (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 1)) return value;
  throw new ToolkitError('INVALID_OPTIONS', `MCP HTTP resumability option ${name} must be a whole number >= 1 (or Infinity for no limit), got ${String(value)}.`);
}

/** @internal The limits of `options`, defaults applied; throws `INVALID_OPTIONS` for invalid ones. */
export function checkedEventStoreLimits(options: McpEventStoreLimits): EventStoreBounds {
  const limits: Record<keyof McpEventStoreLimits, number> = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof McpEventStoreLimits)[]) {
    limits[key] = checkedBound(key, options[key] ?? DEFAULT_LIMITS[key]);
  }
  return limits;
}

/**
 * @internal The events one MCP session keeps, as the SDK's `EventStore` of its transport: ids it
 * did not issue are unknown to it, whichever session issued them.
 */
class SessionEvents implements EventStore {
  /** This session's events by id. */
  readonly events = new Map<string, StoredEvent>();
  /** This session's events, oldest first. */
  readonly order = new EventQueue();
  /** Each stream's event ids, oldest first. */
  readonly streams = new Map<string, string[]>();
  bytes = 0;
  /** Set when the session closed: nothing is kept for it any more. */
  released = false;

  constructor(private readonly store: McpEventStores) {}

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    return Promise.resolve(this.store.add(this, streamId, message));
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.store.find(this, eventId)?.streamId);
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const last = this.store.find(this, lastEventId);
    // the HTTP handler refuses unknown ids before the SDK gets here; a custom caller gets an error
    if (!last) throw new ToolkitError('INVALID_ARGUMENTS', 'Unknown Last-Event-ID: nothing to replay.');
    const ids = this.streams.get(last.streamId) ?? [];
    // copied: sending may store new events on the same stream
    for (const id of ids.slice(ids.indexOf(last.id) + 1)) {
      const event = this.events.get(id);
      if (event) await send(event.id, JSON.parse(event.json) as JSONRPCMessage);
    }
    return last.streamId;
  }
}

/**
 * @internal The built-in event store of one HTTP handler: one {@link SessionEvents} per MCP
 * session, bounded per session and overall by events and bytes, each event expiring after
 * `eventTtlMs` (checked whenever events are stored or looked up, so no timer runs), and released
 * with its session.
 */
export class McpEventStores {
  /** Every session's events, oldest first. */
  private readonly all = new EventQueue();
  private readonly sessions = new Map<string, SessionEvents>();
  /** Ids are unique to this store (and to this process run) and say nothing else. */
  private readonly prefix = randomUUID().slice(0, 8);
  private sequence = 0;
  private totalEvents = 0;
  private totalBytes = 0;

  constructor(private readonly limits: EventStoreBounds) {}

  /** The number and size (bytes of JSON and bookkeeping) of the events kept. */
  get stats(): { readonly events: number; readonly bytes: number } {
    return { events: this.totalEvents, bytes: this.totalBytes };
  }

  /** The event store of session `sessionId` (made on first use). */
  forSession(sessionId: string): EventStore {
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = new SessionEvents(this)));
    return session;
  }

  /** True when session `sessionId` can replay what came after `eventId`. */
  knows(sessionId: string, eventId: string): boolean {
    const session = this.sessions.get(sessionId);
    return session !== undefined && this.find(session, eventId) !== undefined;
  }

  /** Forgets session `sessionId` and its events. */
  release(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    session.released = true;
    for (const event of [...session.events.values()]) this.drop(event);
  }

  /** @internal Stores one event of `session`; returns its id. */
  add(session: SessionEvents, streamId: string, message: JSONRPCMessage): string {
    const id = `${this.prefix}-${(this.sequence++).toString(36)}`;
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json) + id.length + streamId.length + EVENT_OVERHEAD_BYTES;
    const { maxBytesPerSession, maxBytes, maxEventsPerSession, maxEvents } = this.limits;
    this.expire();
    if (session.released) return id;
    if (bytes > maxBytesPerSession || bytes > maxBytes) {
      // not kept: the stream's older events go too, so no replay can skip over this one
      for (const older of [...(session.streams.get(streamId) ?? [])]) this.drop(session.events.get(older)!);
      return id;
    }
    while (session.events.size >= maxEventsPerSession || session.bytes + bytes > maxBytesPerSession) this.drop(session.order.oldest()!);
    while (this.totalEvents >= maxEvents || this.totalBytes + bytes > maxBytes) this.drop(this.all.oldest()!);
    const event: StoredEvent = { id, session, streamId, json, bytes, expires: Date.now() + this.limits.eventTtlMs, dropped: false };
    this.all.push(event);
    session.order.push(event);
    session.events.set(id, event);
    let stream = session.streams.get(streamId);
    if (!stream) session.streams.set(streamId, (stream = []));
    stream.push(id);
    session.bytes += bytes;
    this.totalEvents++;
    this.totalBytes += bytes;
    return id;
  }

  /** @internal `session`'s event `eventId`, unless it expired or is another session's. */
  find(session: SessionEvents, eventId: string): StoredEvent | undefined {
    this.expire();
    return session.events.get(eventId);
  }

  /** Drops the events whose time is up: the oldest first, so the walk stops at the first live one. */
  private expire(): void {
    const now = Date.now();
    for (let event = this.all.oldest(); event !== undefined && event.expires <= now; event = this.all.oldest()) this.drop(event);
  }

  private drop(event: StoredEvent): void {
    if (event.dropped) return;
    const { session } = event;
    event.dropped = true;
    event.json = '';
    this.all.died();
    session.order.died();
    session.events.delete(event.id);
    const stream = session.streams.get(event.streamId)!;
    stream.splice(stream.indexOf(event.id), 1);
    if (stream.length === 0) session.streams.delete(event.streamId);
    session.bytes -= event.bytes;
    this.totalEvents--;
    this.totalBytes -= event.bytes;
  }
}
