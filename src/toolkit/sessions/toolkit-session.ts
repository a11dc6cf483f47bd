import type { ToolCall, ToolResult } from '../../model/tool-types';
import { NO_OPTIONS, type CallOptions } from '../../executor/executor-parts';
import { closedError, type ActivationState } from '../activation';
import { ToolView, type ViewParts } from '../tool-view';

/** @internal Where a session's view is closed: the toolkit's table of sessions. */
export interface SessionCloser {
  /** Closes a session's view and forgets the session (idempotent); its skill, if any, is deactivated. */
  close(view: ToolView, state: ActivationState): void;
}

/**
 * Options of `toolkit.session(id, options)`.
 *
 * @example
 * toolkit.session(conversationId, { ttlMs: 30 * 60_000 });
 */
export interface SessionOptions {
  /**
   * Close the session after this long without use (a `toolkit.session(id)` lookup, a call, a
   * group toggle or a skill change through it). Default: the session's earlier `ttlMs`, else the
   * toolkit's `sessionTtlMs`, else never. `Infinity` means never.
   */
  ttlMs?: number | undefined;
}

/**
 * One session's view of a toolkit: its own active groups and skill; the toolkit's tools, hooks
 * and events. Concurrent sessions never see each other's toggles: every state change is
 * synchronous and lands in this session's state alone, and calls check availability against it.
 *
 * Cheap: a session holds its group set (shared with the toolkit until it toggles one), its skill
 * and a reference to the availability it shares with every view in the same state; caches and
 * Observables are made on first use.
 *
 * Closed sessions (`close()`, or expired) keep their last state for reading, but toggles and
 * skill changes throw `SESSION_CLOSED` and calls answer with a `SESSION_CLOSED` error result;
 * `toolkit.session(id)` then starts a new session.
 *
 * @example
 * const session = toolkit.session('conversation-42', { ttlMs: 15 * 60_000 });
 * session.updateToolGroups(['admin'], true);       // this conversation only
 * await session.activateSkill('research');
 * const defs = session.toProviderDefs('openai');
 * const results = await session.callTools(calls);   // events carry sessionId 'conversation-42'
 * session.close();
 */
export class ToolkitSession extends ToolView {
  /** @internal */ private readonly table: SessionCloser;
  private ttlMs: number | undefined;

  /** @internal */
  constructor(parts: ViewParts, state: ActivationState, table: SessionCloser, ttlMs: number | undefined) {
    super(parts, state);
    this.table = table;
    this.ttlMs = ttlMs;
  }

  /** @internal The session's state (its groups, skill, lifetime). */
  get sessionState(): ActivationState {
    return this.state;
  }

  /** @internal When the session expires (ms since the epoch; `Infinity`: never). */
  get expiresAt(): number {
    return this.state.expiresAt;
  }

  /** @internal Sets a new TTL (when given) and restarts it. */
  touch(ttlMs?: number): void {
    if (ttlMs !== undefined) this.ttlMs = ttlMs;
    const ttl = this.ttlMs;
    if (ttl !== undefined && ttl !== Infinity) this.state.expiresAt = Date.now() + Math.max(0, ttl);
    else if (ttlMs !== undefined) this.state.expiresAt = Infinity;
  }

  /** The session's id. */
  get id(): string {
    return this.state.sessionId!;
  }

  /** True once the session was closed (by `close()` or because it expired). */
  get closed(): boolean {
    this.closeIfExpired();
    return this.state.closed;
  }

  /**
   * Closes the session when its TTL ran out, and otherwise restarts it: an expired session
   * answers `SESSION_CLOSED` from its first use after expiry, whether or not a sweep ran.
   */
  private use(): void {
    if (this.ttlMs === undefined || this.state.closed) return;
    if (!this.closeIfExpired()) this.touch();
  }

  private closeIfExpired(): boolean {
    if (!this.state.expired()) return false;
    this.table.close(this, this.state);
    return true;
  }

  /**
   * Ends the session: its `activeTools$`, `availability$` and `activeSkill$` complete and the
   * toolkit forgets it. Idempotent.
   */
  close(): void {
    this.table.close(this, this.state);
  }

  /**
   * @internal Puts the session in a state it had before (a conversation restored from a
   * server-signed handle), whatever it holds now (e.g. what `onSession` set up): `groups` as its
   * base groups, then `skill` with the groups switched on during it, or no skill. No skill hook
   * runs. Returns `false` when the skill could not be restored (the groups are).
   */
  restore(groups: readonly string[], skill: { readonly name: string; readonly groups: readonly string[] } | undefined): boolean {
    const state = this.state;
    if (state.closed) throw closedError(state.sessionId);
    const previous = state.skill?.name;
    if (previous !== undefined) {
      state.skill = undefined;
      state.skillChanged(previous);
    }
    const wanted = new Set(groups);
    const off = [...state.baseGroups].filter((g) => !wanted.has(g));
    const removed = state.setGroups(off, false);
    if (state.setGroups(groups, true) || removed) state.groupsChanged();
    return skill === undefined || this.parts.skills.restore(state, skill.name, new Set(skill.groups));
  }

  /** Runs one tool call in this session's view, as {@link ToolView.callTool} does; answers `SESSION_CLOSED` once the session is closed. */
  override callTool(call: ToolCall, options: CallOptions = NO_OPTIONS): Promise<ToolResult> {
    this.use();
    return super.callTool(call, options);
  }

  /** {@inheritDoc ToolView.updateToolGroups} */
  override updateToolGroups(names: readonly string[], active: boolean): void {
    this.use();
    if (this.state.closed) throw closedError(this.state.sessionId);
    super.updateToolGroups(names, active);
  }

  /** {@inheritDoc ToolView.activateSkill} */
  override activateSkill(name: string): Promise<void> {
    this.use();
    return super.activateSkill(name);
  }

  /** {@inheritDoc ToolView.deactivateSkill} */
  override deactivateSkill(): Promise<void> {
    this.use();
    return super.deactivateSkill();
  }
}
