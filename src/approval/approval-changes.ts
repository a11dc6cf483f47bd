import { claimOf, type InMemoryApprovalDecisions } from './approval-decisions';
import type { PendingApprovals } from './approval-pending';
import { rejectedResult } from './approval-results';
import type { ApprovalOutcome, ApprovalStore, ApprovalStoreChange } from './approval-store';
import type { ApprovalDecision, PendingApproval } from './approval-types';

/** At most this many calls approved elsewhere wait here for their result. */
const MAX_AWAITING = 1_000;

/** @internal What {@link StoreChanges} needs of its manager. */
export interface ChangesHost {
  readonly held: PendingApprovals;
  readonly memory: InMemoryApprovalDecisions;
  publish(decision: ApprovalDecision): void;
  /** Lists held call `id` as the store has it (that record only), when it is pending there and verified. */
  load(id: string): Promise<void>;
  /** A call left the list. */
  freed(): void;
}

/**
 * @internal What a manager with a store does with the changes the store announces, one at a time
 * in the order they came: a call held elsewhere is read and listed (that record, not the whole
 * list again); a call decided elsewhere leaves the list and, once its outcome is read, goes out on
 * `decisions$` — a rejection at once, an approval when its run's result is stored. An
 * announcement is only a hint: what is listed or published is read from the store, and a
 * decision is published only for the call as this replica listed it (same digest). This
 * replica's own decisions are skipped: it publishes them itself.
 */
export class StoreChanges {
  private queue: Promise<void> = Promise.resolve();
  private readonly own = new Set<string>();
  private readonly awaiting = new Map<string, PendingApproval>();

  constructor(
    private readonly store: ApprovalStore,
    private readonly host: ChangesHost,
    private readonly report: (error: unknown) => void,
  ) {}

  /** Takes a change in turn. */
  push(change: ApprovalStoreChange): void {
    this.queue = this.queue.then(() => this.apply(change)).catch(this.report);
  }

  /**
   * Runs `write` (a hold or a decision of this replica) with `id` marked as written here: its
   * announcement, which may come before the write's answer, is not taken for a change from elsewhere.
   */
  async writing<T>(id: string, write: () => Promise<T>): Promise<T> {
    this.own.add(id);
    try {
      return await write();
    } finally {
      this.own.delete(id);
    }
  }

  private async apply({ id, kind }: ApprovalStoreChange): Promise<void> {
    if (this.own.has(id)) return;
    const { held, memory } = this.host;
    if (kind === 'held') {
      if (!held.has(id) && memory.decisionOf(id) === undefined) await this.host.load(id);
    } else if (kind === 'finished') {
      const approval = this.awaiting.get(id);
      if (approval === undefined) return;
      this.awaiting.delete(id);
      this.published(approval, await this.store.outcome?.(id));
    } else {
      const approval = held.get(id);
      if (approval === undefined) return;
      const outcome = await this.store.outcome?.(id);
      const decision = outcome?.audit.decision ?? (await this.store.decisionOf(id));
      // not decided after all (an announcement someone else sent), or changed meanwhile: it stays as it is
      if (decision === undefined || held.get(id) !== approval) return;
      held.release(approval);
      memory.claim(claimOf(approval, decision));
      held.publish();
      this.host.freed();
      if (!this.published(approval, outcome) && decision === 'approved') this.await(approval);
    }
  }

  /** Publishes the outcome of `approval` decided elsewhere; false when there is nothing to publish yet (an approval without its result). */
  private published(approval: PendingApproval, outcome: ApprovalOutcome | undefined): boolean {
    if (outcome === undefined || outcome.audit.digest !== approval.digest) return false;
    const { decision, decidedAt, reason } = outcome.audit;
    if (decision === 'rejected') {
      this.host.publish({ approval, decision, result: rejectedResult(approval, reason ?? 'a person declined it'), decidedAt });
      return true;
    }
    if (outcome.result === undefined) return false;
    this.host.publish({ approval, decision, result: outcome.result, decidedAt });
    return true;
  }

  private await(approval: PendingApproval): void {
    this.awaiting.set(approval.id, approval);
    if (this.awaiting.size > MAX_AWAITING) this.awaiting.delete(this.awaiting.keys().next().value!);
  }
}
