import type { ActivationState } from './activation';
import { ToolView, type ViewHost } from './tool-view';

/** Options of `toolkit.session(id, options)`. */
export interface SessionOptions {
  /** Drop the session after this long without a `toolkit.session(id)` lookup (default: the toolkit's `sessionTtlMs`, or never). */
  ttlMs?: number;
}

/**
 * One session's view of a toolkit: its own active groups and skill, the toolkit's tools, hooks
 * and events. Concurrent sessions never see each other's toggles. Cheap: a set of group names
 * and a few caches.
 */
export class ToolkitSession extends ToolView {
  /** @internal */
  expiresAt = Infinity;

  /** @internal */
  constructor(host: ViewHost, state: ActivationState, private readonly onClose: () => void) {
    super(host, state);
  }

  /** @internal */
  get stateForHost(): ActivationState {
    return this.state;
  }

  /** @internal */
  touch(ttlMs: number | undefined): void {
    this.expiresAt = ttlMs === undefined ? Infinity : Date.now() + ttlMs;
  }

  /** The session's id. */
  get id(): string {
    return this.state.sessionId!;
  }

  /** Ends the session: its `activeTools$` completes and the toolkit forgets its state. */
  close(): void {
    this.onClose();
  }
}
