import type { ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServerHandle } from './mcp-server';

/** @internal One MCP session of the HTTP handler. */
export interface McpHttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly mcp: McpServerHandle;
  /** The id of the principal that created the session (`undefined` without `authenticate`). */
  readonly principalId: string | undefined;
  /** When a request of this session last started or ended (`Date.now()`). */
  lastSeen: number;
  /** Requests in flight, SSE streams opened by GET aside. */
  busy: number;
}

/** The shortest and longest pause between two idle sweeps. */
const SWEEP_MIN_MS = 10;
const SWEEP_MAX_MS = 60_000;

/**
 * @internal The sessions of one HTTP handler: a cap on how many exist (initialized or being
 * initialized) and one unref'd sweep timer, running only while there are sessions, that closes
 * those idle for `idleTimeoutMs`. Idle means no request in flight (a standalone GET stream does
 * not count) and none started or ended for that long.
 */
export class McpHttpSessions {
  private readonly byId = new Map<string, McpHttpSession>();
  private readonly starting = new Set<McpHttpSession>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly maxSessions: number,
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

  /** True when a new session fits under the cap (after closing the sessions already idle too long). */
  hasRoom(): boolean {
    if (this.byId.size + this.starting.size < this.maxSessions) return true;
    this.sweep();
    return this.byId.size + this.starting.size < this.maxSessions;
  }

  /** Counts a session being initialized. */
  add(session: McpHttpSession): void {
    this.starting.add(session);
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
    this.updateSweeper();
  }

  /** Records a request of `session`; `response` keeps it busy until it closes, unless `stream` (a GET). */
  touch(session: McpHttpSession, response: ServerResponse, stream: boolean): void {
    session.lastSeen = Date.now();
    if (stream) return;
    session.busy++;
    response.once('close', () => {
      session.busy--;
      session.lastSeen = Date.now();
    });
  }

  /** Empties the table, stops the sweeper and returns every session (to close). */
  drain(): McpHttpSession[] {
    const all = [...this.byId.values(), ...this.starting];
    this.byId.clear();
    this.starting.clear();
    this.updateSweeper();
    return all;
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleTimeoutMs;
    for (const session of [...this.byId.values()]) {
      if (session.busy > 0 || session.lastSeen > cutoff) continue;
      this.remove(session);
      session.mcp.close().catch(() => undefined);
    }
  }

  private updateSweeper(): void {
    const needed = this.byId.size + this.starting.size > 0 && Number.isFinite(this.idleTimeoutMs);
    if (needed && !this.sweeper) {
      const period = Math.min(Math.max(this.idleTimeoutMs / 4, SWEEP_MIN_MS), SWEEP_MAX_MS);
      this.sweeper = setInterval(() => this.sweep(), period).unref();
    } else if (!needed && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
