import { ToolExecutionContext } from '../model/execution-context';
import { isPlainObject } from '../utils/plain-object';
import { errorResult } from '../model/results';
import type { ToolResult } from '../model/tool-types';
import type { TravellingContexts } from '../model/travelling-contexts';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import { CALL_ORIGIN, type CallOrigin, type HookContext } from '../executor/hook-types';
import { StoreChanges } from './approval-changes';
import { claimOf, type InMemoryApprovalDecisions } from './approval-decisions';
import { freezeApproval, type PendingApprovals } from './approval-pending';
import { rememberKey, rememberedDecisionFor, type RememberedDecisions } from './approval-remembered';
import type { Requester } from './approval-requester';
import { notPending, rejectedResult, storeFailed, unknownOrDecided } from './approval-results';
import { requesterRun, type ApprovalGrants } from './approval-resume';
import { parseSnapshot } from './approval-snapshot';
import { approvalDigest, type ApprovalAuditRecord, type ApprovalStore, type StoredApproval } from './approval-store';
import { rebuiltContext, travellingValues } from './approval-travel';
import type { ApprovalDecision, ApprovalManagerOptions, ApproveOptions, PendingApproval, RejectOptions, RememberedDecision } from './approval-types';

/** The largest held call (approval and travelling context, as JSON) written to a store. */
const MAX_RECORD_CHARS = 1_000_000;

/** @internal What a {@link SharedApprovals} needs of its manager. */
export interface SharedHost {
  readonly held: PendingApprovals;
  readonly memory: InMemoryApprovalDecisions;
  readonly grants: ApprovalGrants;
  readonly remembered: RememberedDecisions;
  readonly contexts: TravellingContexts | undefined;
  readonly signingKey: string | Uint8Array | undefined;
  readonly now: () => number;
  publish(decision: ApprovalDecision): void;
  report(error: unknown, source: string): void;
}

function changed(id: string, why: string): ToolkitError {
  return new ToolkitError('APPROVAL_CHANGED', `Approval '${id}' was refused: ${why}. Nothing ran; the record was not decided. Show the call again before deciding.`);
}

/**
 * @internal The part of an `ApprovalManager` that works through a shared {@link ApprovalStore}: a
 * held call is written there first; the pending list here is a copy of the store's, refreshed
 * when the store says it changed; a decision is the store's atomic `decide`, so that of all the
 * processes sharing the store exactly one decides each call, and only as it was shown.
 */
export class SharedApprovals {
  /** Counts refreshes: a call held here after a refresh began is not dropped by that refresh's (older) list. */
  private generation = 0;
  private readonly heldAt = new Map<string, number>();
  private refreshing: Promise<void> | undefined = undefined;
  private again = false;
  private readonly changes: StoreChanges;
  /** A call announced while the list was full (`maxPending`) was not listed. */
  private overflowed = false;

  private constructor(
    private readonly store: ApprovalStore,
    private readonly host: SharedHost,
  ) {
    const report = (error: unknown): void => host.report(error, 'store');
    this.changes = new StoreChanges(store, { held: host.held, memory: host.memory, publish: host.publish, load: (id) => this.load(id), freed: () => this.freed() }, report);
    // the store calls back once it can be read (everything is loaded), and on every change (that record is)
    store.watch((change) => (change === undefined ? void this.refresh().catch(report) : this.changes.push(change)));
  }

  /**
   * The shared part of a manager with a `store` (`undefined` without one).
   *
   * @throws ToolkitError `INVALID_OPTIONS` when both `store` and `decisions` are given, or `signingKey` is too short.
   */
  static create(options: ApprovalManagerOptions, parts: Omit<SharedHost, 'contexts' | 'signingKey'>): SharedApprovals | undefined {
    const { store, signingKey } = options;
    if (store === undefined) return undefined;
    if (options.decisions !== undefined) throw new ToolkitError('INVALID_OPTIONS', 'ApprovalManager: pass store or decisions, not both (a store records the decisions itself).');
    if (signingKey !== undefined && !(typeof signingKey === 'string' ? signingKey.length >= 32 : signingKey instanceof Uint8Array && signingKey.length >= 32)) {
      throw new ToolkitError('INVALID_OPTIONS', 'ApprovalManager: signingKey must be a string or Uint8Array of at least 32 characters or bytes.');
    }
    return new SharedApprovals(store, { ...parts, contexts: options.contexts, signingKey });
  }

  /** Reloads the pending list from the store (one reload at a time; a change meanwhile reloads once more). */
  refresh(): Promise<void> {
    if (this.refreshing !== undefined) {
      this.again = true;
      return this.refreshing;
    }
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        await this.reload();
      } while (this.again);
    };
    this.refreshing = run().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async reload(): Promise<void> {
    const generation = ++this.generation;
    let records: readonly StoredApproval[];
    try {
      records = await this.store.list();
    } catch (error) {
      throw storeFailed('The pending approvals could not be listed', error);
    }
    const { held, memory } = this.host;
    const listed = new Map<string, PendingApproval>();
    for (const record of records.slice(0, held.maxPending)) {
      const approval = this.verified(record);
      if (approval !== undefined && memory.decisionOf(approval.id) === undefined) listed.set(approval.id, approval);
    }
    for (const approval of held.list()) {
      const stale = listed.get(approval.id)?.digest !== approval.digest;
      if (stale && (this.heldAt.get(approval.id) ?? 0) < generation) {
        held.release(approval);
        this.heldAt.delete(approval.id);
      }
    }
    for (const approval of listed.values()) if (!held.has(approval.id)) held.add(approval);
    held.publish();
  }

  /** Lists held call `id` as the store has it, when it is pending there, verified, and there is room. */
  private async load(id: string): Promise<void> {
    const { held, memory } = this.host;
    if (held.list().length >= held.maxPending) {
      this.overflowed = true;
      return;
    }
    let record: StoredApproval | undefined;
    try {
      record = await this.store.get(id);
    } catch (error) {
      throw storeFailed(`Approval '${id}' could not be read`, error);
    }
    const approval = record === undefined ? undefined : this.verified(record);
    if (approval === undefined || approval.id !== id || held.has(id) || memory.decisionOf(id) !== undefined) return;
    this.heldAt.set(id, this.generation);
    held.add(approval);
    held.publish();
  }

  /** A call left a full list: the calls not listed for want of room are loaded now (the whole list, once). */
  private freed(): void {
    if (!this.overflowed) return;
    this.overflowed = false;
    void this.refresh().catch((error: unknown) => this.host.report(error, 'store'));
  }

  /** The record's approval when it is well-formed and its digest matches its content; `undefined` otherwise. */
  private verified(record: StoredApproval): PendingApproval | undefined {
    try {
      const [approval] = parseSnapshot({ version: 1, pending: [record.approval], remembered: [], decided: [] }, this.host.now()).pending;
      if (approval === undefined || (record.context !== undefined && !isPlainObject(record.context))) return undefined;
      if (typeof record.digest !== 'string' || approvalDigest(approval, record.context, this.host.signingKey) !== record.digest) return undefined;
      return freezeApproval({ ...approval, digest: record.digest });
    } catch {
      return undefined;
    }
  }

  /** Writes the held call to the store, then lists it here; a failure is the call's answer (nothing runs). */
  async hold(ctx: HookContext, approval: PendingApproval): Promise<ToolResult | undefined> {
    const tool = ctx.tool.name;
    let record: StoredApproval;
    try {
      const context = travellingValues(ctx.context, this.host.contexts, tool);
      const digest = approvalDigest(approval, context, this.host.signingKey);
      record = { approval: freezeApproval({ ...approval, digest }), ...(context !== undefined ? { context } : {}), digest };
    } catch (error) {
      return errorResult(`Tool '${tool}' needs a person's approval and cannot be held: ${describeThrown(error).slice(0, 300)} The call did not run.`, 'INVALID_CONTEXT');
    }
    if (JSON.stringify(record).length > MAX_RECORD_CHARS) {
      return errorResult(`Tool '${tool}' needs a person's approval, but its arguments and context are over ${MAX_RECORD_CHARS} characters as JSON. The call did not run.`, 'APPROVAL_LIMIT_EXCEEDED');
    }
    let written: boolean;
    try {
      written = await this.changes.writing(approval.id, () => this.store.hold(record));
    } catch (error) {
      // the model learns that it failed, the operator (onCallbackError) why: no store address reaches the model
      this.host.report(storeFailed(`A call of tool '${tool}' could not be held`, error), 'store');
      return errorResult(`Tool '${tool}' needs a person's approval, but the approval store is unavailable. The call did not run; try again later.`, 'APPROVAL_STORE_FAILED');
    }
    if (!written) throw new ToolkitError('INVALID_OPTIONS', `ApprovalManager: the approval store already knows approval id '${approval.id}'; approval ids must be unique.`);
    this.heldAt.set(approval.id, this.generation);
    this.host.held.add(record.approval, ctx[CALL_ORIGIN]);
    this.host.held.publish();
    return undefined;
  }

  /** The stored call `id` as it can be decided: present, well-formed, unchanged since it was held and since it was shown. */
  private async fetch(id: string, shown: string | undefined): Promise<{ approval: PendingApproval; record: StoredApproval }> {
    let record: StoredApproval | undefined;
    try {
      record = await this.store.get(id);
    } catch (error) {
      throw storeFailed(`Approval '${id}' could not be read`, error, true);
    }
    if (record === undefined) {
      throw unknownOrDecided(id, this.host.memory.decisionOf(id) ?? (await this.store.decisionOf(id).catch(() => undefined)));
    }
    const approval = this.verified(record);
    if (approval === undefined || approval.id !== id) throw changed(id, 'its stored record does not match the digest written when the call was held (it was changed in the store)');
    const listed = this.host.held.get(id)?.digest;
    if (shown !== undefined && shown !== record.digest) throw changed(id, 'the call in the store is not the one shown (its digest differs)');
    if (listed !== undefined && listed !== record.digest) throw changed(id, 'the call in the store is not the one listed here (its digest differs)');
    return { approval, record };
  }

  /** Decides the call in the store (atomic) and drops it here; throws unless this decision won. */
  private async decide(approval: PendingApproval, entry: ApprovalAuditRecord): Promise<void> {
    let verdict;
    try {
      verdict = await this.changes.writing(approval.id, () => this.store.decide(entry));
    } catch (error) {
      throw storeFailed(`Approval '${approval.id}' could not be decided`, error, true);
    }
    const listed = this.host.held.get(approval.id);
    if (verdict !== 'changed' && listed !== undefined) {
      this.host.held.release(listed);
      this.freed();
    }
    if (verdict === 'changed') throw changed(approval.id, 'the call was changed in the store while it was being decided');
    if (verdict === 'not-pending') throw notPending(`Approval '${approval.id}' was already decided (here or by another process sharing the store); the call does not run again.`);
    this.host.memory.claim(claimOf(approval, entry.decision));
  }

  private auditOf(approval: PendingApproval, digest: string, decision: 'approved' | 'rejected', decidedBy: string | undefined, reason?: string): ApprovalAuditRecord {
    return {
      id: approval.id,
      decision,
      ...(decidedBy !== undefined ? { decidedBy } : {}),
      decidedAt: this.host.now(),
      toolName: approval.toolName,
      callId: approval.call.id,
      digest,
      ...(approval.sessionId !== undefined ? { sessionId: approval.sessionId } : {}),
      ...(approval.principal !== undefined ? { principal: approval.principal } : {}),
      ...(reason !== undefined ? { reason } : {}),
    };
  }

  /** `approve(id)` through the store: the call runs here, as its requester, once fleet-wide. */
  async approve(id: string, options: ApproveOptions): Promise<ToolResult> {
    const { approval, record } = await this.fetch(id, options.digest);
    const origin = this.host.held.originOf(id);
    let runOptions = options;
    if (origin === undefined && (record.context !== undefined || this.host.contexts !== undefined)) {
      // the requester's context as it travelled wins over anything re-supplied
      const travelled = rebuiltContext(id, record.context, this.host.contexts);
      runOptions = { ...options, context: ToolExecutionContext.merge(options.context, travelled) };
    }
    const run = requesterRun(approval, origin, runOptions);
    const remembered = rememberedDecisionFor(approval, options.remember, { decision: 'approved' });
    await this.decide(approval, this.auditOf(approval, record.digest, 'approved', options.decidedBy));
    if (remembered !== undefined) await this.remember(remembered, origin);
    const result = await this.host.grants.run(approval, run);
    // for the other replicas' decisions$
    this.store.finish?.(id, result).catch((error: unknown) => this.host.report(storeFailed(`The result of approval '${id}' was not kept for the other replicas`, error), 'store'));
    this.host.publish({ approval, decision: 'approved', result, decidedAt: this.host.now(), ...(options.decidedBy !== undefined ? { decidedBy: options.decidedBy } : {}) });
    return result;
  }

  /**
   * Records a decision its requester's client took at once (the call was never held): the
   * tombstone and audit record in the store; false when the id is known there.
   */
  async settle(approval: PendingApproval, decision: 'approved' | 'rejected'): Promise<boolean> {
    const digest = approvalDigest(approval, undefined, this.host.signingKey);
    const record: StoredApproval = { approval: freezeApproval({ ...approval, digest }), digest };
    const entry: ApprovalAuditRecord = { ...this.auditOf(approval, digest, decision, approval.principal), via: 'elicitation' };
    try {
      if (this.store.settle !== undefined) return await this.store.settle(record, entry);
      return (await this.store.hold(record)) && (await this.store.decide(entry)) === 'decided';
    } catch (error) {
      // the model learns that it failed, the operator (onCallbackError) why: no store address reaches the model
      this.host.report(storeFailed(`The decision on a call of tool '${approval.toolName}' could not be recorded`, error), 'store');
      throw new ToolkitError('APPROVAL_STORE_FAILED', `The approval store is unavailable, so the answer to the question about tool '${approval.toolName}' could not be recorded. The call did not run; try again later.`);
    }
  }

  /** `reject(id, reason)` through the store. */
  async reject(id: string, reason: string, options: RejectOptions): Promise<ToolResult> {
    const { approval, record } = await this.fetch(id, options.digest);
    const remembered = rememberedDecisionFor(approval, options.remember, { decision: 'rejected', reason });
    const origin = this.host.held.originOf(id);
    await this.decide(approval, this.auditOf(approval, record.digest, 'rejected', options.decidedBy, reason));
    if (remembered !== undefined) await this.remember(remembered, origin);
    const result = rejectedResult(approval, reason);
    this.host.publish({ approval, decision: 'rejected', result, decidedAt: this.host.now(), ...(options.decidedBy !== undefined ? { decidedBy: options.decidedBy } : {}) });
    return result;
  }

  /** Remembers here and in the store; a store failure is reported (the decision itself stands). */
  private async remember(decision: RememberedDecision, origin: CallOrigin | undefined): Promise<void> {
    this.host.remembered.add(decision, origin);
    if (origin?.sessionClosed === true) return;
    try {
      await this.store.remember(rememberKey(decision, decision.toolName)!, decision);
    } catch (error) {
      this.host.report(storeFailed(`The remembered decision for tool '${decision.toolName}' was kept in this process only`, error), 'store');
    }
  }

  /** A decision remembered in the store for this requester and tool (a session's first), if any. */
  async recall(requester: Requester, toolName: string): Promise<RememberedDecision | undefined> {
    const keys = [requester.sessionId !== undefined ? rememberKey(requester, toolName) : undefined, requester.principal !== undefined ? rememberKey({ principal: requester.principal }, toolName) : undefined];
    const present = keys.filter((key): key is string => key !== undefined);
    if (present.length === 0) return undefined;
    const found = await this.store.recall(present).catch(() => []);
    return found.find((decision) => decision !== undefined && (decision.decision === 'approved' || decision.decision === 'rejected'));
  }

  /** A session ended (or its decisions are forgotten): its withdrawn calls are rejected in the store and its remembered decisions forgotten there. */
  sessionEnded(sessionId: string, withdrawn: readonly PendingApproval[]): void {
    for (const approval of withdrawn) {
      this.heldAt.delete(approval.id);
      const entry = this.auditOf(approval, approval.digest ?? '', 'rejected', undefined, 'the session ended');
      this.store.decide(entry).catch((error: unknown) => this.host.report(storeFailed(`Approval '${approval.id}' of an ended session could not be withdrawn`, error), 'store'));
    }
    this.store.forgetSession(sessionId).catch((error: unknown) => this.host.report(storeFailed(`The decisions remembered for an ended session could not be forgotten`, error), 'store'));
  }
}
