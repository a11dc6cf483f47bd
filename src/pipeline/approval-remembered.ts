import { ToolkitError } from '../errors';
import type { PendingApproval, RememberedDecision, RememberScope } from './approval-types';

function rememberKey(identity: { readonly sessionId?: string | undefined; readonly principal?: string | undefined }, toolName: string): string | undefined {
  if (identity.sessionId !== undefined) return `s:${identity.sessionId}\u0000${toolName}`;
  if (identity.principal !== undefined) return `p:${identity.principal}\u0000${toolName}`;
  return undefined;
}

/**
 * @internal The decision to remember for `approval` under `scope`, or `undefined` without a
 * scope. Called before anything is decided, so a call that lacks the identity changes nothing.
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
  return { ...(scope === 'session' ? { sessionId: identity } : { principal: identity }), toolName: approval.toolName, ...decision };
}

/**
 * @internal The decisions an `ApprovalManager` remembers, each for one tool and one session or
 * principal; a session's decision wins over its principal's.
 *
 * @example
 * const memory = new RememberedDecisions();
 * memory.add({ sessionId: 's-1', toolName: 'delete_file', decision: 'approved' });
 * memory.lookup('s-1', undefined, 'delete_file')?.decision; // 'approved'
 */
export class RememberedDecisions {
  private readonly byKey = new Map<string, RememberedDecision>();

  /** Every remembered decision. */
  list(): RememberedDecision[] {
    return [...this.byKey.values()];
  }

  /** Remembers `decision` (a frozen copy), replacing the one for the same identity and tool. */
  add(decision: RememberedDecision): void {
    const key = rememberKey(decision, decision.toolName);
    if (key !== undefined) this.byKey.set(key, Object.freeze({ ...decision }));
  }

  /** The decision for a call of `toolName` by this session or principal, if one is remembered. */
  lookup(sessionId: string | undefined, principal: string | undefined, toolName: string): RememberedDecision | undefined {
    const bySession = sessionId !== undefined ? this.byKey.get(rememberKey({ sessionId }, toolName)!) : undefined;
    return bySession ?? (principal !== undefined ? this.byKey.get(rememberKey({ principal }, toolName)!) : undefined);
  }

  /** Forgets the decisions remembered for `sessionId`. */
  forgetSession(sessionId: string): void {
    for (const [key, decision] of this.byKey) if (decision.sessionId === sessionId) this.byKey.delete(key);
  }
}
