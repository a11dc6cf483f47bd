import { Subject, type Observable } from 'rxjs';
import { errorResult } from '../model/results';
import type { ToolResult } from '../model/tool-types';
import { GuardedObservable } from '../utils/guarded-observable';
import { ToolkitError } from '../errors';
import { APPROVAL_HOOK } from '../executor/authorization';
import { AUTHORIZED_APPROVAL, CALL_ORIGIN, type BeforeHookDecision, type HookContext, type ToolHook } from '../executor/hook-types';
import { InMemoryApprovalDecisions, claimOf, type ApprovalDecisionStore } from './approval-decisions';
import type { ApprovalElicitation } from './approval-elicitation';
import { PendingApprovals, approvalOf, reportSafely, warnOnce } from './approval-pending';
import { approvalRequirement, type ApprovalRequirementCheck } from './approval-policy';
import { RememberedDecisions, rememberedDecisionFor } from './approval-remembered';
import { SessionEnds, type Requester } from './approval-requester';
import { heldResult, limitResult, notPending, rejectedResult, rememberedRejection, storeFailed, unknownOrDecided } from './approval-results';
import { ApprovalGrants, requesterRun } from './approval-resume';
import type { SharedApprovals } from './approval-shared';
import { loadSnapshot, parseSnapshot } from './approval-snapshot';
import { closedError } from '../toolkit/activation';
import type {
  ApprovalDecision,
  ApprovalManagerOptions,
  ApproveOptions,
  PendingApproval,
  PendingFilter,
  RejectOptions,
  RememberedDecision,
  SerializedApprovals,
} from './approval-types';

export { APPROVAL_NOT_PENDING, isPendingApprovalResult } from './approval-results';

/**
 * Human approval for tool calls. Its {@link ApprovalManager.hook} holds every call the policy
 * matches: instead of running, the call answers at once with a pending result (`isError: false`,
 * `async: true` — the real result comes later —, no `error`, `data: { approvalId }`, and a
 * `forLLM` text telling the model the call awaits a person's approval under that id), and a
 * serialisable {@link PendingApproval} is recorded here. A UI lists them (`pending({ sessionId })`,
 * `pending$`) and decides: `approve(id)` runs the call exactly once — as its requester: in its
 * view, session and context — and resolves to its result (answering the original call id);
 * `reject(id, reason)` answers with an `APPROVAL_REJECTED` error result. Feed either result back
 * to the model as the answer to the call. Decisions may be remembered per session or principal
 * (never for everyone), and the state survives a restart through `serialize()` / `restore()`;
 * a decided call never runs again, whatever is restored (see {@link ApprovalDecisionStore}).
 * Everything is keyed by the requester (the session and the `principal` option's id): the same
 * call id from another requester is another call. When a toolkit session ends, its remembered
 * decisions are forgotten and its pending approvals withdrawn (recorded as rejected): a session
 * id opened again inherits nothing. With a `store` (Redis, PostgreSQL), every process sharing it
 * lists and decides the same calls, and the state outlives restarts ({@link ApprovalManagerOptions.store}).
 *
 * Bounded: at most `maxPending` calls are held at once (`maxPendingPerSession` per requester); a
 * call over the cap is answered with an `APPROVAL_LIMIT_EXCEEDED` error result.
 *
 * With `elicitation`, a call that comes from a client that can be asked (an MCP client with the
 * `elicitation` capability) is put to that client's user first, and runs or is rejected at once
 * (see {@link ApprovalManagerOptions.elicitation}); otherwise it is held as above.
 *
 * Batch-safe: each call of a batch is held or run on its own, so the calls that need no approval
 * run at once and every held call keeps its own pending approval.
 *
 * An approved call runs through the whole pipeline again (other hooks, the availability gate,
 * validation, timeout, retry) with the arguments the person saw; only this manager's check is
 * skipped, for that one run.
 *
 * @example
 * const approvals = new ApprovalManager({ minRisk: 'high', tools: ['send_payment'] });
 * toolkit.use(approvals.hook);
 * approvals.pending$.subscribe((list) => ui.showApprovals(list));
 * // later, when the person clicks "Approve":
 * const result = await approvals.approve(id, { remember: 'session' });
 * messages.push({ role: 'tool', toolCallId: result.toolCallId!, content: result.forLLM });
 */
export class ApprovalManager {
  /** The hook to add with `toolkit.use(...)`; it holds the calls the policy matches. */
  readonly hook: ToolHook;

  private readonly requirement: ApprovalRequirementCheck;
  private readonly principalOf: ApprovalManagerOptions['principal'];
  private readonly generateId: () => string;
  private readonly now: () => number;
  private readonly held: PendingApprovals;
  private readonly memory: InMemoryApprovalDecisions;
  private readonly decisions: ApprovalDecisionStore;
  private readonly rememberedDecisions = new RememberedDecisions();
  private readonly grants = new ApprovalGrants();
  private readonly pendingList$: Observable<readonly PendingApproval[]>;
  private readonly decisionsSubject = new Subject<ApprovalDecision>();
  private readonly decisionList$: Observable<ApprovalDecision>;
  private readonly asking: ApprovalElicitation | undefined;
  private readonly sessionEnds = new SessionEnds((sessionId, lifetime) => this.sessionEnded(sessionId, lifetime));
  private readonly shared: SharedApprovals | undefined;

  /**
   * @throws ToolkitError `INVALID_OPTIONS` when `minRisk` is not a risk level, or `maxPending` /
   *   `maxPendingPerSession` is not a whole number >= 1, or both `store` and `decisions` are given.
   */
  constructor(options: ApprovalManagerOptions = {}) {
    this.requirement = approvalRequirement(options);
    this.principalOf = options.principal;
    // Web Crypto's global, not `node:crypto`: that module and the stream modules it loads cost
    // ~10 ms at `require('toolwright')`, for every user, approvals or not.
    this.generateId = options.generateId ?? (() => `appr_${globalThis.crypto.randomUUID()}`);
    this.now = options.now ?? Date.now;
    this.held = new PendingApprovals(options);
    this.memory = new InMemoryApprovalDecisions(10_000, this.now);
    this.decisions = options.decisions ?? this.memory;
    const report = options.onCallbackError !== undefined ? reportSafely(options.onCallbackError) : warnOnce();
    const publish = (d: ApprovalDecision): void => this.decisionsSubject.next(d);
    const parts = { held: this.held, memory: this.memory, grants: this.grants, remembered: this.rememberedDecisions, now: this.now, report, publish };
    this.shared = options.store && (require('./approval-shared') as typeof import('./approval-shared')).SharedApprovals.create(options, parts); // loaded with a store only
    this.pendingList$ = GuardedObservable.of(this.held.list$, report, 'pending$');
    this.decisionList$ = GuardedObservable.of(this.decisionsSubject, report, 'decisions$');
    if (options.logger) (require('./approval-logging') as typeof import('./approval-logging')).logApprovals(options.logger, this.held.list$, this.decisionsSubject); // loaded with a logger only
    const asking = options.elicitation;
    if (asking) {
      const host = { newId: () => this.newId(), now: this.now, record: this.record.bind(this), publish };
      // loaded for the managers that ask, not with require('toolwright')
      const { ApprovalElicitation } = require('./approval-elicitation') as typeof import('./approval-elicitation');
      this.asking = new ApprovalElicitation(asking === true ? {} : asking, host);
    }
    const name = options.name ?? 'approval';
    const before = (ctx: HookContext) => this.check(ctx);
    // approvals given by the client run in their own call: the decision is published once that run ends
    const hook: ToolHook = this.asking ? { name, before, after: (ctx, result) => this.asking!.finished(ctx, result) } : { name, before };
    // the toolkit's authorize rule may send calls here ('approval'): it needs to know one is installed
    this.hook = Object.assign(hook, { [APPROVAL_HOOK]: true });
  }

  /** The calls waiting for a decision, oldest first; with a filter, only one session's or principal's. */
  pending(filter?: PendingFilter): PendingApproval[] {
    return this.held.filtered(filter);
  }

  /** With a `store`: reloads the pending list from it now (it also reloads by itself on every change); rejects with `APPROVAL_STORE_FAILED` when the store cannot be read. */
  async refresh(): Promise<void> {
    await this.shared?.refresh();
  }

  /** The pending approvals: the current list at once, then a new list on every change (for an operator's view of all sessions). */
  get pending$(): Observable<readonly PendingApproval[]> {
    return this.pendingList$;
  }

  /** Every decision, with the result that answers the original call (approvals emit once the run finished). */
  get decisions$(): Observable<ApprovalDecision> {
    return this.decisionList$;
  }

  /** A pending approval by id. */
  get(id: string): PendingApproval | undefined {
    return this.held.get(id);
  }

  /** The decisions remembered per session or principal. */
  remembered(): RememberedDecision[] {
    return this.rememberedDecisions.list();
  }

  /** Forgets the decisions remembered for `sessionId` (in the `store` too). Pending approvals stay; a toolkit session's end forgets both anyway. */
  forgetSession(sessionId: string): void {
    this.rememberedDecisions.forgetSession(sessionId);
    this.shared?.sessionEnded(sessionId, []);
  }

  /**
   * Approves a pending call: runs it once, as it was requested (see {@link ApproveOptions}), and
   * resolves to its result, which answers the original call id. Call-time faults of the run (the
   * tool is disabled for the requester now, it throws, times out…) come back as error results,
   * as for any call.
   *
   * @throws ToolkitError (the Promise rejects; nothing runs and the approval stays pending unless
   *   it was decided) `APPROVAL_NOT_PENDING` when `id` is unknown or already decided (here, in a
   *   restored copy, or by another process sharing the decision store);
   *   `APPROVAL_CONTEXT_REQUIRED` for a restored call without `context` and a `toolkit` or `view`;
   *   `APPROVAL_CONTEXT_CONFLICT` when the options name another context or session than the
   *   requester's; `APPROVAL_IDENTITY_MISSING` when `remember` names an identity the call lacks;
   *   `APPROVAL_STORE_FAILED` when the decision store failed (nothing was decided);
   *   `APPROVAL_CHANGED` (with a `store`) when the stored call is not the one held or shown.
   *
   * @example
   * const result = await approvals.approve('appr_1');
   */
  async approve(id: string, options: ApproveOptions = {}): Promise<ToolResult> {
    if (this.shared) return this.shared.approve(id, options);
    const approval = this.pendingOrThrow(id);
    const origin = this.held.originOf(id);
    const run = requesterRun(approval, origin, options);
    const remembered = rememberedDecisionFor(approval, options.remember, { decision: 'approved' });
    await this.claim(approval, 'approved');
    if (remembered !== undefined) this.rememberedDecisions.add(remembered, origin);
    const result = await this.grants.run(approval, run);
    this.decisionsSubject.next({ approval, decision: 'approved', result, decidedAt: this.now(), ...(options.decidedBy !== undefined ? { decidedBy: options.decidedBy } : {}) });
    return result;
  }

  /**
   * Rejects a pending call: the tool does not run; the returned error result (code
   * `APPROVAL_REJECTED`, the reason in its message) answers the original call id.
   *
   * @throws ToolkitError (the Promise rejects) `APPROVAL_NOT_PENDING` when `id` is unknown or
   *   already decided; `APPROVAL_IDENTITY_MISSING` when `remember` names an identity the call lacks.
   *
   * @example
   * const result = await approvals.reject('appr_1', 'payments above 1,000 EUR need a second signature');
   */
  async reject(id: string, reason = 'a person declined it', options: RejectOptions = {}): Promise<ToolResult> {
    if (this.shared) return this.shared.reject(id, reason, options);
    const approval = this.pendingOrThrow(id);
    const remembered = rememberedDecisionFor(approval, options.remember, { decision: 'rejected', reason });
    const origin = this.held.originOf(id);
    await this.claim(approval, 'rejected');
    if (remembered !== undefined) this.rememberedDecisions.add(remembered, origin);
    const result = rejectedResult(approval, reason);
    this.decisionsSubject.next({ approval, decision: 'rejected', result, decidedAt: this.now(), ...(options.decidedBy !== undefined ? { decidedBy: options.decidedBy } : {}) });
    return result;
  }

  /** The state as JSON text: pending approvals, remembered decisions and recently decided ids. */
  serialize(): string {
    return JSON.stringify(this.toJSON());
  }

  /** The state as a plain object (what `serialize()` stringifies). */
  toJSON(): SerializedApprovals {
    return { version: 1, pending: this.pending(), remembered: this.remembered(), ...this.memory.toJSON() };
  }

  /**
   * Loads a state written by `serialize()` (e.g. by a process before it restarted) into this
   * manager: its pending approvals can then be approved with the requester's context re-supplied
   * (`approve(id, { toolkit, context })`). Approvals already pending or decided here, and copies
   * of calls decided since they were held, are skipped; so are approvals over `maxPending`.
   *
   * @returns the number of pending approvals added.
   * @throws ToolkitError `INVALID_SNAPSHOT` when `state` is not a serialised approval state
   *   (checked whole before anything is loaded); `INVALID_OPTIONS` with a `store` (the store is the state).
   *
   * @example
   * const approvals = new ApprovalManager(policy);
   * approvals.restore(await fs.readFile('approvals.json', 'utf8'));
   * await approvals.approve(id, { toolkit, context: ToolExecutionContext.of(user) });
   */
  restore(state: string | SerializedApprovals): number {
    if (this.shared) throw new ToolkitError('INVALID_OPTIONS', 'ApprovalManager.restore(): this manager keeps its state in its store; restore() is for managers without one.');
    return loadSnapshot(parseSnapshot(state, this.now()), { held: this.held, memory: this.memory, remembered: this.rememberedDecisions });
  }

  private async check(ctx: HookContext): Promise<BeforeHookDecision> {
    const origin = ctx[CALL_ORIGIN];
    this.sessionEnds.watch(ctx.sessionId, origin);
    if (this.grants.admits(ctx)) return undefined;
    const reason = ctx[AUTHORIZED_APPROVAL] === true ? `the authorization rule requires approval for tool '${ctx.tool.name}'` : await this.requirement(ctx);
    if (reason === undefined) return undefined;
    const principal = this.principal(ctx);
    const requester: Requester = { sessionId: ctx.sessionId, principal };
    const remembered = this.rememberedDecisions.lookup(requester, origin?.lifetime, ctx.tool.name) ?? (await this.shared?.recall(requester, ctx.tool.name));
    if (remembered?.decision === 'approved') return undefined;
    if (remembered?.decision === 'rejected') return { action: 'respond', result: rememberedRejection(ctx.tool.name, remembered) };
    if (this.asking?.canAsk(ctx)) {
      const answer = await this.asking.ask(ctx, reason, principal);
      if (answer === 'approved') return undefined;
      if (answer !== undefined) return { action: 'respond', result: answer };
    }
    // the session ended while the policy or the client was asked: nothing is held for it
    if (origin?.sessionClosed === true) return { action: 'respond', result: errorResult(closedError(ctx.sessionId).message, 'SESSION_CLOSED') };
    const full = this.held.overLimit(requester);
    if (full !== undefined) return { action: 'respond', result: limitResult(ctx.tool.name, full) };
    if (this.shared === undefined) return { action: 'respond', result: this.hold(ctx, reason, principal) };
    const id = this.newId();
    const failed = await this.shared.hold(ctx, approvalOf(ctx, id, reason, principal, this.now()));
    return { action: 'respond', result: failed ?? heldResult(ctx.tool.name, reason, id) };
  }

  private principal(ctx: HookContext): string | undefined {
    const principal = this.principalOf?.(ctx);
    return typeof principal === 'string' && principal !== '' ? principal : undefined;
  }

  /** A fresh approval id (`generateId` must not repeat one). */
  private newId(): string {
    const id = this.generateId();
    if (this.held.has(id) || this.memory.decisionOf(id) !== undefined) {
      throw new ToolkitError('INVALID_OPTIONS', `ApprovalManager: generateId() returned '${id}' twice; approval ids must be unique.`);
    }
    return id;
  }

  private hold(ctx: HookContext, reason: string, principal: string | undefined): ToolResult {
    const id = this.newId();
    const approval = approvalOf(ctx, id, reason, principal, this.now());
    this.held.add(approval, ctx[CALL_ORIGIN]);
    this.held.publish();
    return heldResult(ctx.tool.name, reason, id);
  }

  private pendingOrThrow(id: string): PendingApproval {
    const approval = this.held.get(id);
    if (approval !== undefined) return approval;
    throw unknownOrDecided(id, this.memory.decisionOf(id));
  }

  /** Records the decision in the store (atomic); a lost claim drops the stale copy and throws. */
  private async claim(approval: PendingApproval, decision: 'approved' | 'rejected'): Promise<void> {
    // removed first, synchronously: two decisions can never both win here
    if (this.held.get(approval.id) !== approval) throw notPending(`Approval '${approval.id}' is being decided already.`);
    const origin = this.held.release(approval);
    let won: boolean;
    try {
      won = await this.record(approval, decision);
    } catch (error) {
      // the store could not record the decision: nothing was decided, the call stays pending
      this.held.add(approval, origin);
      this.held.publish();
      throw storeFailed(`Approval '${approval.id}' could not be decided`, error, true);
    }
    if (!won) throw notPending(`Approval '${approval.id}' was already decided (here, in an earlier copy, or by another process); the call does not run again.`);
  }

  /** Records a decision in the store (atomic; with a shared store, its audit record too) and in memory; false when decided already. */
  private async record(approval: PendingApproval, decision: 'approved' | 'rejected'): Promise<boolean> {
    const claim = claimOf(approval, decision);
    if (this.shared) return (await this.shared.settle(approval, decision)) && this.memory.claim(claim);
    return this.decisions === this.memory ? this.memory.claim(claim) : (await this.decisions.claim(claim)) && this.memory.claim(claim);
  }

  /** A session ended: its remembered decisions are forgotten, its pending approvals withdrawn and recorded as rejected (in a store too). */
  private sessionEnded(sessionId: string, lifetime: object): void {
    this.rememberedDecisions.forgetSession(sessionId, lifetime);
    const withdrawn = this.held.withdrawSession(sessionId, lifetime);
    for (const approval of withdrawn) {
      const claim = claimOf(approval, 'rejected');
      this.memory.claim(claim);
      if (this.decisions !== this.memory) Promise.resolve().then(() => this.decisions.claim(claim)).catch(() => undefined);
    }
    this.shared?.sessionEnded(sessionId, withdrawn);
  }
}

/**
 * Creates an {@link ApprovalManager} and returns its hook, with the manager at `.approvals`.
 *
 * @example
 * const approval = createApprovalHook({ tools: ['delete_file'], minRisk: 'high' });
 * toolkit.use(approval);
 * const [first] = approval.approvals.pending();
 * await approval.approvals.approve(first.id, { toolkit });
 */
export function createApprovalHook(options: ApprovalManagerOptions = {}): ToolHook & { readonly approvals: ApprovalManager } {
  const approvals = new ApprovalManager(options);
  return Object.freeze({ ...approvals.hook, approvals });
}
