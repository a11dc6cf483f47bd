import type { CallOrigin } from '../executor/hook-types';
import { ToolkitError } from '../errors';
import type { Requester } from './approval-requester';
import type { PendingApproval, RememberedDecision, RememberScope } from './approval-types';

/** @internal The key of a decision: a session's (narrowed to its principal when known) or a principal's, for one tool. */
export function rememberKey(identity: Requester, toolName: string): string | undefined {
  if (identity.sessionId !== undefined) return JSON.stringify(['session', identity.sessionId, identity.principal ?? null, toolName]);
  if (identity.principal !== undefined) return JSON.stringify(['principal', identity.principal, toolName]);
  return undefined;
}

/**
 * @internal The decision to remember for `approval` under `scope`, or `undefined` without a
 * scope. Called before anything is decided, so a call that lacks the identity changes nothing.
 * A session's decision also names the call's principal, when known: it covers that requester only.
 *
 * @throws ToolkitError `APPROVAL_IDENTITY_MISSING` when the call has no session (`'session'`) or
 *   no principal (`'principal'`): a remembered decision never covers everyone.
 *
 * @example
 * const remembered = rememberedDecisionFor(approval, 'session', { decision: 'approved' });
 */
export function rememberedDecisionFor(
  approval: PendingApproval,
  scope: RememberScope | undefined,
  decision: { decision: 'approved' | 'rejected'; reason?: string },
): RememberedDecision | undefined {
  if (scope === undefined) return undefined;
  const identity = scope === 'session' ? approval.sessionId : approval.principal;
  if (identity === undefined) {
    throw new ToolkitError(
      'APPROVAL_IDENTITY_MISSING',
      `Approval '${approval.id}': remember: '${scope}' needs the call's ${scope === 'session' ? 'session (it was made without one)' : 'principal (set the manager\'s principal option)'}; ` +
        'a remembered decision never covers everyone. Decide without remember. Nothing was decided.',
    );
  }
  const who = scope === 'session' ? { sessionId: identity, ...(approval.principal !== undefined ? { principal: approval.principal } : {}) } : { principal: identity };
  return { ...who, toolName: approval.toolName, ...decision };
}

/** A remembered decision and, for a session's, the lifetime of the session it belongs to (unknown for one restored from a snapshot). */
interface Entry {
  readonly decision: RememberedDecision;
  /** The {@link CallOrigin.lifetime} of the session it was taken in. */
  lifetime: object | undefined;
}

/**
 * @internal The decisions an `ApprovalManager` remembers, each for one tool and one requester: a
 * session (and its principal, when known) or a principal; a session's decision wins over its
 * principal's. A session's decision lives as long as that session: it applies only to calls made
 * in the same lifetime of the session, and {@link forgetSession} drops it when the session ends. A
 * decision restored from a snapshot belongs to the first lifetime of its session id that uses it.
 *
 * @example
 * const memory = new RememberedDecisions();
 * memory.add({ sessionId: 's-1', toolName: 'delete_file', decision: 'approved' }, origin);
 * memory.lookup({ sessionId: 's-1' }, origin.lifetime, 'delete_file')?.decision; // 'approved'
 */
export class RememberedDecisions {
  private readonly byKey = new Map<string, Entry>();
  /** The keys of each session's decisions (a session's end costs its own decisions only). */
  private readonly bySession = new Map<string, Set<string>>();

  /** Every remembered decision. */
  list(): RememberedDecision[] {
    return [...this.byKey.values()].map((entry) => entry.decision);
  }

  /**
   * Remembers `decision` (a frozen copy) for the lifetime of the session of the call it was taken
   * on (its `origin`), replacing the one for the same requester and tool. Nothing is remembered for
   * a session that ended meanwhile.
   */
  add(decision: RememberedDecision, origin?: CallOrigin): void {
    const key = rememberKey(decision, decision.toolName);
    if (key === undefined || origin?.sessionClosed === true) return;
    const sessionId = decision.sessionId;
    this.byKey.set(key, { decision: Object.freeze({ ...decision }), lifetime: sessionId !== undefined ? origin?.lifetime : undefined });
    if (sessionId === undefined) return;
    let keys = this.bySession.get(sessionId);
    if (keys === undefined) this.bySession.set(sessionId, (keys = new Set()));
    keys.add(key);
  }

  /** The decision for a call of `toolName` by `requester`, made in the session `lifetime` (a {@link CallOrigin.lifetime}), if one is remembered. */
  lookup(requester: Requester, lifetime: object | undefined, toolName: string): RememberedDecision | undefined {
    const session = requester.sessionId !== undefined ? this.byKey.get(rememberKey(requester, toolName)!) : undefined;
    if (session !== undefined) {
      session.lifetime ??= lifetime; // restored: the session's current lifetime adopts it
      if (session.lifetime === lifetime) return session.decision;
    }
    return requester.principal !== undefined ? this.byKey.get(rememberKey({ principal: requester.principal }, toolName)!)?.decision : undefined;
  }

  /** Forgets the decisions remembered for `sessionId`: all of them, or those of one ended `lifetime` (and restored ones not yet adopted). */
  forgetSession(sessionId: string, lifetime?: object): void {
    const keys = this.bySession.get(sessionId);
    if (keys === undefined) return;
    for (const key of keys) {
      const entry = this.byKey.get(key);
      if (entry !== undefined && lifetime !== undefined && entry.lifetime !== undefined && entry.lifetime !== lifetime) continue;
      this.byKey.delete(key);
      keys.delete(key);
    }
    if (keys.size === 0) this.bySession.delete(sessionId);
  }
}
