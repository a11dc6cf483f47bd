import type { ActivationState } from '../activation';
import { ToolkitSession, type SessionCloser, type SessionOptions } from './toolkit-session';
import type { ToolView, ViewParts } from '../tool-view';

/** The least time between two scans for expired sessions (each scan visits every session). */
const SWEEP_GAP_MS = 1_000;

/**
 * @internal The open sessions of a toolkit: made on first lookup, each lookup restarting its TTL,
 * closed by `close()`, by expiry (noticed on use) or by a sweep that reclaims expired ones.
 */
export class SessionTable implements SessionCloser {
  private readonly sessions = new Map<string, ToolkitSession>();
  /** No session expires before this (a lower bound; `Infinity` when none has a TTL). */
  private nextExpiry = Infinity;
  /** No full scan of the sessions before this. */
  private nextSweepAt = -Infinity;

  constructor(
    /** The parts every view of the toolkit works with (a session's skill is deactivated through them when it closes). */
    private readonly parts: ViewParts,
    /** Makes the state of a new session's view (from the toolkit's base groups, with no skill). */
    private readonly newState: (sessionId: string) => ActivationState,
    private readonly ttlMs: number | undefined,
  ) {}

  /** The number of open sessions (expired ones may still be counted until the next lookup). */
  get size(): number {
    return this.sessions.size;
  }

  /** The open sessions. */
  values(): IterableIterator<ToolkitSession> {
    return this.sessions.values();
  }

  /** The session `id`, made (from the toolkit's base groups, with no skill) when there is none or it expired. */
  session(id: string, options: SessionOptions): ToolkitSession {
    const now = this.sweep();
    let session = this.sessions.get(id);
    if (session !== undefined && session.expiresAt <= now) {
      this.close(session, session.sessionState);
      session = undefined;
    }
    if (!session) {
      session = new ToolkitSession(this.parts, this.newState(id), this, options.ttlMs ?? this.ttlMs);
      this.sessions.set(id, session);
      session.touch();
    } else session.touch(options.ttlMs);
    if (session.expiresAt < this.nextExpiry) this.nextExpiry = session.expiresAt;
    return session;
  }

  /** The ids of the open sessions (expired ones are closed first). */
  ids(): string[] {
    const now = this.sweep();
    const ids: string[] = [];
    for (const session of this.sessions.values()) {
      if (session.expiresAt <= now) this.close(session, session.sessionState);
      else ids.push(session.id);
    }
    return ids;
  }

  /** Closes a session's view and forgets the session (idempotent). */
  close(view: ToolView, state: ActivationState): void {
    const id = state.sessionId;
    if (id !== undefined && this.sessions.get(id) === view) this.sessions.delete(id);
    // A skill active at close still gets its onDeactivate (nobody is left to hear a failure).
    if (!state.closed && state.skill !== undefined) void this.parts.skills.deactivate(view, state).catch(() => undefined);
    state.complete();
  }

  /**
   * Closes expired sessions to free them; returns the time it read. A no-op (no scan) until the
   * earliest expiry is due, and at most one scan per second: a session is checked for expiry
   * whenever it is used or looked up, so the scan only reclaims memory.
   */
  private sweep(): number {
    const now = Date.now();
    if (now < this.nextExpiry || now < this.nextSweepAt) return now;
    this.nextSweepAt = now + SWEEP_GAP_MS;
    let next = Infinity;
    for (const session of this.sessions.values()) {
      if (session.expiresAt <= now) this.close(session, session.sessionState);
      else if (session.expiresAt < next) next = session.expiresAt;
    }
    this.nextExpiry = next;
    return now;
  }
}
