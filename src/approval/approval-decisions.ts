import { callKeyOf, type Requester } from './approval-requester';

/**
 * What an {@link ApprovalDecisionStore} is asked to record: one approval being decided.
 *
 * @example
 * const claim: DecisionClaim = { id: 'appr_1', callKey: 'call:2jmj7l5rSw0yVb_vlWAYkK_YBwk', createdAt: 1_700_000_000_000, decision: 'approved' };
 */
export interface DecisionClaim {
  /** The approval's id. */
  readonly id: string;
  /**
   * The call it holds, as an opaque key of at most 100 characters: a digest of its requester (session
   * and principal) and call id. The same call id sent by another requester is another call.
   */
  readonly callKey: string;
  /** When the call was held (ms since the epoch). */
  readonly createdAt: number;
  /** What is being decided. */
  readonly decision: 'approved' | 'rejected';
}

/**
 * Where decided approvals are recorded, so that a call that was decided never runs again —
 * whatever snapshot is restored, in this process or in another one. `claim` must be atomic:
 * of two claims of one approval (or of one call held before a decision about it), exactly one
 * may succeed. The default is {@link InMemoryApprovalDecisions}; processes that share pending
 * approvals share a store (e.g. Redis `SET NX` on the id and on the call key).
 *
 * @example
 * const store: ApprovalDecisionStore = {
 *   async claim(c) { return (await redis.set(`appr:${c.id}`, c.decision, 'NX')) === 'OK'; },
 * };
 * new ApprovalManager({ tools: ['send_payment'], decisions: store });
 */
export interface ApprovalDecisionStore {
  /**
   * Records the decision; `false` when the approval was decided before (here or elsewhere), or
   * when its call was decided after this copy was held — then nothing runs.
   */
  claim(claim: DecisionClaim): boolean | Promise<boolean>;
}

/** One remembered decision of the in-memory store, as serialised. */
export interface DecidedRecord {
  readonly id: string;
  readonly decision: 'approved' | 'rejected';
  readonly callKey?: string;
  readonly createdAt?: number;
  readonly decidedAt?: number;
}

/**
 * The default {@link ApprovalDecisionStore}: the last `limit` decisions in memory. When older
 * ones roll out, it remembers the newest `createdAt` among them (the horizon) and refuses every
 * approval held at or before it: such a copy can no longer be proven undecided, so it never runs.
 *
 * @example
 * new ApprovalManager({ decisions: new InMemoryApprovalDecisions(50_000) });
 */
export class InMemoryApprovalDecisions implements ApprovalDecisionStore {
  private readonly byId = new Map<string, DecidedRecord>();
  /** When each call was last decided. */
  private readonly byCall = new Map<string, number>();
  private horizon = -Infinity;

  constructor(
    private readonly limit = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  claim(claim: DecisionClaim): boolean {
    if (this.isDecided(claim)) return false;
    this.record({ id: claim.id, decision: claim.decision, callKey: claim.callKey, createdAt: claim.createdAt, decidedAt: this.now() });
    return true;
  }

  /** True when the approval (or its call, after it was held) was decided, or is too old to tell. */
  isDecided(approval: { readonly id: string; readonly callKey: string; readonly createdAt: number }): boolean {
    if (this.byId.has(approval.id) || approval.createdAt <= this.horizon) return true;
    const decidedAt = this.byCall.get(approval.callKey);
    return decidedAt !== undefined && decidedAt >= approval.createdAt;
  }

  /** How the approval `id` was decided, if this store still knows. */
  decisionOf(id: string): 'approved' | 'rejected' | undefined {
    return this.byId.get(id)?.decision;
  }

  /** The remembered decisions and the horizon, for `serialize()`. */
  toJSON(): { decided: DecidedRecord[]; horizon?: number } {
    const decided = [...this.byId.values()];
    return Number.isFinite(this.horizon) ? { decided, horizon: this.horizon } : { decided };
  }

  /** Adds what a snapshot knows (decisions and horizon). */
  load(decided: readonly DecidedRecord[], horizon: number | undefined): void {
    if (horizon !== undefined && horizon > this.horizon) this.horizon = horizon;
    for (const record of decided) if (!this.byId.has(record.id)) this.record(record);
  }

  private record(record: DecidedRecord): void {
    this.byId.set(record.id, record);
    if (record.callKey !== undefined) this.byCall.set(record.callKey, Math.max(this.byCall.get(record.callKey) ?? -Infinity, record.decidedAt ?? Infinity));
    if (this.byId.size <= this.limit) return;
    const [oldestId, oldest] = this.byId.entries().next().value!;
    this.byId.delete(oldestId);
    // what rolls out can no longer be checked: everything held up to then counts as decided
    this.horizon = Math.max(this.horizon, oldest.createdAt ?? oldest.decidedAt ?? this.now());
    if (oldest.callKey !== undefined && this.byCall.size > this.limit) this.byCall.delete(oldest.callKey);
  }
}

/** @internal The claim that records `decision` about `approval` (a pending approval). */
export function claimOf(
  approval: Requester & { readonly id: string; readonly call: { readonly id: string }; readonly createdAt: number },
  decision: 'approved' | 'rejected',
): DecisionClaim {
  return { id: approval.id, callKey: callKeyOf(approval, approval.call.id), createdAt: approval.createdAt, decision };
}
