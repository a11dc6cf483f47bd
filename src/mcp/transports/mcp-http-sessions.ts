import type { ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpActivity, type McpServerHandle } from '../server/mcp-server';

/** @internal One MCP session of the HTTP handler. */
export interface McpHttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly mcp: McpServerHandle;
  /** The id of the principal that created the session (`undefined` without `authenticate`). */
  readonly principalId: string | undefined;
  /** Whose quota the session counts against: its principal, or (anonymous) its client's address. */
  readonly owner: string;
  /** When a request of this session last started or ended (`Date.now()`). */
  lastSeen: number;
  /** Requests in flight, GET streams aside. */
  busy: number;
  /** GET streams open. */
  streams: number;
}

/** @internal Why a new session was refused: the handler's cap, or its owner's. */
export type SessionRefusal = 'server' | 'owner';

/** The shortest and longest pause between two idle sweeps. */
const SWEEP_MIN_MS = 10;
const SWEEP_MAX_MS = 60_000;

/**
 * @internal The quota key of a session: the principal's id, or for anonymous clients their
 * address (an IPv6 client by its /64 network, which one host usually has whole).
 */
export function ownerOf(principalId: string | undefined, remoteAddress: string | undefined): string {
  if (principalId !== undefined) return `principal:${principalId}`;
  const address = (remoteAddress ?? '').toLowerCase();
  if (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4) return `address:${address.slice(7)}`;
  if (isIP(address) !== 6) return `address:${address}`;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `address:${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * @internal The sessions of one HTTP handler: a cap on how many exist (initialized or being
 * initialized), overall and per owner, and one unref'd sweep timer, running only while there are
 * sessions, that closes those idle for `idleTimeoutMs`. Idle means nothing in flight (no request
 * but GET streams, no tool call or task — a call whose stream was closed still counts) and
 * nothing started or ended for that long. At a cap, a new session of an owner replaces that
 * owner's least recently used session with nothing in flight and no GET stream open.
 */
export class McpHttpSessions {
  private readonly byId = new Map<string, McpHttpSession>();
  private readonly starting = new Set<McpHttpSession>();
  private readonly perOwner = new Map<string, Set<McpHttpSession>>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly maxSessions: number,
    readonly maxPerOwner: number,
    private readonly idleTimeoutMs: number,
  ) {}

  /** Initialized sessions. */
  get size(): number {
    return this.byId.size;
  }

  /** The initialized session with this `Mcp-Session-Id`, if open. */
  get(id: string): McpHttpSession | undefined {
    return this.byId.get(id);
  }

  /**
   * Makes room for a new session of `owner` and answers whether it may start: at its owner's cap
   * or the server's (after closing sessions idle too long), the owner's least recently used
   * unused session is closed to make room; without one, the session is refused.
   */
  admit(owner: string): SessionRefusal | undefined {
    const own = this.perOwner.get(owner)?.size ?? 0;
    if (own >= this.maxPerOwner) return this.replaceUnused(owner) ? undefined : 'owner';
    if (this.count() < this.maxSessions) return undefined;
    this.sweep();
    if (this.count() < this.maxSessions || this.replaceUnused(owner)) return undefined;
    return 'server';
  }

  /** Counts a session being initialized. */
  add(session: McpHttpSession): void {
    this.starting.add(session);
    let own = this.perOwner.get(session.owner);
    if (!own) this.perOwner.set(session.owner, (own = new Set()));
    own.add(session);
    this.updateSweeper();
  }

  /** The transport gave `session` its id. */
  initialized(session: McpHttpSession, id: string): void {
    this.starting.delete(session);
    this.byId.set(id, session);
  }

  /** Forgets a closed session. */
  remove(session: McpHttpSession): void {
    this.starting.delete(session);
    const id = session.transport.sessionId;
    if (id !== undefined && this.byId.get(id) === session) this.byId.delete(id);
    const own = this.perOwner.get(session.owner);
    if (own?.delete(session) && own.size === 0) this.perOwner.delete(session.owner);
    this.updateSweeper();
  }

  /** Records a request of `session`; `response` keeps it busy until it closes (a GET: counts as an open stream). */
  touch(session: McpHttpSession, response: ServerResponse, stream: boolean): void {
    session.lastSeen = Date.now();
    if (stream) session.streams++;
    else session.busy++;
    response.once('close', () => {
      if (stream) session.streams--;
      else session.busy--;
      session.lastSeen = Date.now();
    });
  }

  /** Empties the table, stops the sweeper and returns every session (to close). */
  drain(): McpHttpSession[] {
    const all = [...this.byId.values(), ...this.starting];
    this.byId.clear();
    this.starting.clear();
    this.perOwner.clear();
    this.updateSweeper();
    return all;
  }

  private count(): number {
    return this.byId.size + this.starting.size;
  }

  /** When `session` was last active, or `undefined` while something of it is in flight. */
  private lastActive(session: McpHttpSession): number | undefined {
    const { running, lastEnded } = mcpActivity(session.mcp);
    return session.busy > 0 || running > 0 ? undefined : Math.max(session.lastSeen, lastEnded);
  }

  /** Closes `owner`'s least recently active initialized session with nothing in flight and no stream open; false when it has none. */
  private replaceUnused(owner: string): boolean {
    let oldest: McpHttpSession | undefined;
    let oldestAt = Number.POSITIVE_INFINITY;
    for (const session of this.perOwner.get(owner) ?? []) {
      const at = this.starting.has(session) || session.streams > 0 ? undefined : this.lastActive(session);
      if (at !== undefined && at < oldestAt) [oldest, oldestAt] = [session, at];
    }
    if (!oldest) return false;
    this.close(oldest);
    return true;
  }

  private close(session: McpHttpSession): void {
    this.remove(session);
    session.mcp.close().catch(() => undefined);
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleTimeoutMs;
    for (const session of [...this.byId.values()]) {
      const at = this.lastActive(session);
      if (at !== undefined && at <= cutoff) this.close(session);
    }
  }

  private updateSweeper(): void {
    const needed = this.count() > 0 && Number.isFinite(this.idleTimeoutMs);
    if (needed && !this.sweeper) {
      const period = Math.min(Math.max(this.idleTimeoutMs / 4, SWEEP_MIN_MS), SWEEP_MAX_MS);
      this.sweeper = setInterval(() => this.sweep(), period).unref();
    } else if (!needed && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
