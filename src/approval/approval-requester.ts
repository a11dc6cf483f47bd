import type { Hash } from 'node:crypto';
import type { CallOrigin } from '../executor/hook-types';

/**
 * @internal Who made a call, as far as an `ApprovalManager` can tell: its session and the
 * principal the manager's `principal` option names. The one notion of identity of approvals:
 * pending buckets, decided call ids and remembered decisions are all keyed by it. Callers the
 * application does not tell apart (no session, no principal) are one requester.
 */
export interface Requester {
  readonly sessionId?: string | undefined;
  readonly principal?: string | undefined;
}

/** @internal The key of a requester (its pending bucket; unambiguous whatever the ids hold). */
export function requesterKey(requester: Requester): string {
  return JSON.stringify([requester.sessionId ?? null, requester.principal ?? null]);
}

/** @internal How messages name a requester: `'session'`, `'principal'` or `'caller'`. */
export function requesterNoun(requester: Requester): string {
  if (requester.sessionId !== undefined) return 'session';
  return requester.principal !== undefined ? 'principal' : 'caller';
}

let createHash: ((algorithm: string) => Hash) | undefined;

/**
 * @internal The key of one requester's call in a `DecisionClaim`: a fixed-size digest of the
 * requester and the call id, so that the same call id of another requester is another call, and
 * no id makes a key too long to store or restore. `node:crypto` is loaded on the first decision,
 * not with `require('toolwright')`.
 */
export function callKeyOf(requester: Requester, callId: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  createHash ??= (require('node:crypto') as typeof import('node:crypto')).createHash;
  return `call:${createHash('sha256').update(JSON.stringify([requester.sessionId ?? null, requester.principal ?? null, callId])).digest('base64url')}`;
}

/**
 * @internal Tells an `ApprovalManager` when a session whose calls it saw ends: once per session
 * lifetime, whatever the number of calls. A session id opened again is a new lifetime.
 *
 * @example
 * const ends = new SessionEnds((sessionId, lifetime) => forget(sessionId, lifetime));
 * ends.watch(ctx.sessionId, ctx[CALL_ORIGIN]);
 */
export class SessionEnds {
  private readonly watched = new WeakSet<object>();

  /** `ended` gets the id and the {@link CallOrigin.lifetime} of a session that closed. */
  constructor(private readonly ended: (sessionId: string, lifetime: object) => void) {}

  /** Starts watching the lifetime of the session of a call (its `origin`; nothing without a session). */
  watch(sessionId: string | undefined, origin: CallOrigin | undefined): void {
    const lifetime = origin?.lifetime;
    if (sessionId === undefined || origin === undefined || lifetime === undefined || this.watched.has(lifetime)) return;
    this.watched.add(lifetime);
    origin.onSessionClose(() => this.ended(sessionId, lifetime));
  }
}
