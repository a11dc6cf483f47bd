import { randomUUID } from 'node:crypto';
import { BehaviorSubject, Subject, map, type Observable } from 'rxjs';
import { ToolExecutionContext } from '../common/execution-context';
import { errorResult } from '../common/results';
import type { ToolCall, ToolResult, ToolRisk } from '../common/tool-types';
import type { CallOptions } from '../executor/call-executor';
import { GuardedObservable } from '../common/guarded-observable';
import { ToolkitError, describeThrown, type ToolkitErrorCode } from '../errors';
import { CALL_ORIGIN, type BeforeHookDecision, type CallOrigin, type HookContext, type ToolHook } from '../executor/hooks';
import type { ToolView } from '../toolkit/tool-view';
import { InMemoryApprovalDecisions, callKeyOf, type ApprovalDecisionStore, type DecisionClaim } from './approval-decisions';
import { checkSnapshot } from './approval-snapshot';
import type {
  ApprovalDecision,
  ApprovalManagerOptions,
  ApprovalPolicy,
  ApproveOptions,
  PendingApproval,
  PendingApprovalData,
  PendingFilter,
  RejectOptions,
  RememberedDecision,
  RememberScope,
  SerializedApprovals,
} from './approval-types';

/**
 * The code of the `ToolkitError` thrown by `approve` / `reject` for an id that is unknown or
 * already decided.
 *
 * @example
 * try { await approvals.approve(id, { toolkit }); }
 * catch (e) { if (ToolkitError.is(e) && e.code === APPROVAL_NOT_PENDING) ui.say('Someone already decided.'); }
 */
export const APPROVAL_NOT_PENDING = 'APPROVAL_NOT_PENDING' satisfies ToolkitErrorCode;

const RISK_RANK: Readonly<Record<ToolRisk, number>> = { low: 0, medium: 1, high: 2 };

/** Marks the approved run of one approval in the call's context; only the manager that made it honours it. */
const GRANT = Symbol('toolwright.approvalGrant');

interface Grant {
  readonly manager: ApprovalManager;
  readonly id: string;
  readonly callId: string;
  readonly toolName: string;
  used: boolean;
}

function rememberKey(identity: { readonly sessionId?: string | undefined; readonly principal?: string | undefined }, toolName: string): string | undefined {
  if (identity.sessionId !== undefined) return `s:${identity.sessionId}\u0000${toolName}`;
  if (identity.principal !== undefined) return `p:${identity.principal}\u0000${toolName}`;
  return undefined;
}

function notPending(message: string): ToolkitError {
  return new ToolkitError(APPROVAL_NOT_PENDING, message);
}

function positiveLimit(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new ToolkitError('INVALID_DEFINITION', `ApprovalManager: ${what} must be a whole number >= 1, got ${String(value)}.`);
  return value;
}

/**
 * True when `result` is the answer of a call held for approval (then `result.data.approvalId`
 * names it).
 *
 * @example
 * const results = await toolkit.callTools(calls);
 * const held = results.filter(isPendingApprovalResult).map((r) => r.data.approvalId);
 */
export function isPendingApprovalResult(result: ToolResult): result is ToolResult & { data: PendingApprovalData } {
  const data = result.data as Partial<PendingApprovalData> | undefined;
  return !result.isError && result.async && typeof data === 'object' && data !== null && typeof data.approvalId === 'string';
}

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
 *
 * Bounded: at most `maxPending` calls are held at once (`maxPendingPerSession` per session); a
 * call over the cap is answered with an `APPROVAL_LIMIT_EXCEEDED` error result.
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

  private readonly tools: ReadonlySet<string>;
  private readonly minRisk: ToolRisk | undefined;
  private readonly when: ApprovalPolicy['when'];
  private readonly principalOf: ApprovalManagerOptions['principal'];
  private readonly generateId: () => string;
  private readonly now: () => number;
  private readonly maxPending: number;
  private readonly maxPendingPerSession: number;
  private readonly held = new Map<string, PendingApproval>();
  /** How many calls each session (key `''`: none) has held. */
  private readonly heldPerSession = new Map<string, number>();
  /** How to run each call held in this process as it was requested (never serialised). */
  private readonly origins = new Map<string, CallOrigin>();
  private readonly memory: InMemoryApprovalDecisions;
  private readonly decisions: ApprovalDecisionStore;
  private readonly rememberedDecisions = new Map<string, RememberedDecision>();
  private readonly grants = new Map<string, Grant>();
  /** The pending list, made only when someone reads it (holding stays O(1) however many are held). */
  private snapshot: readonly PendingApproval[] | undefined = undefined;
  private readonly changes = new BehaviorSubject<void>(undefined);
  private readonly pendingList$: Observable<readonly PendingApproval[]>;
  private readonly decisionsSubject = new Subject<ApprovalDecision>();
  private readonly decisionList$: Observable<ApprovalDecision>;

  constructor(options: ApprovalManagerOptions = {}) {
    this.tools = new Set(options.tools ?? []);
    this.minRisk = options.minRisk;
    if (this.minRisk !== undefined && !(this.minRisk in RISK_RANK)) {
      throw new ToolkitError('INVALID_DEFINITION', `ApprovalManager: minRisk must be 'low', 'medium' or 'high', got '${String(this.minRisk)}'.`);
    }
    this.when = options.when;
    this.principalOf = options.principal;
    this.generateId = options.generateId ?? (() => `appr_${randomUUID()}`);
    this.now = options.now ?? Date.now;
    this.maxPending = positiveLimit(options.maxPending, 1_000, 'maxPending');
    this.maxPendingPerSession = positiveLimit(options.maxPendingPerSession, 100, 'maxPendingPerSession');
    this.memory = new InMemoryApprovalDecisions(10_000, this.now);
    this.decisions = options.decisions ?? this.memory;
    const report = options.onCallbackError !== undefined ? reportSafely(options.onCallbackError) : warnOnce();
    this.pendingList$ = GuardedObservable.of(this.changes.pipe(map(() => this.list())), report, 'pending$');
    this.decisionList$ = GuardedObservable.of(this.decisionsSubject, report, 'decisions$');
    this.hook = { name: options.name ?? 'approval', before: (ctx) => this.check(ctx) };
  }

  /** The calls waiting for a decision, oldest first; with a filter, only one session's or principal's. */
  pending(filter?: PendingFilter): PendingApproval[] {
    const all = this.list();
    if (filter === undefined || (filter.sessionId === undefined && filter.principal === undefined)) return [...all];
    return all.filter((p) => (filter.sessionId === undefined || p.sessionId === filter.sessionId) && (filter.principal === undefined || p.principal === filter.principal));
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
    return [...this.rememberedDecisions.values()];
  }

  /** Forgets the decisions remembered for `sessionId` (e.g. when the session ends). Pending approvals stay. */
  forgetSession(sessionId: string): void {
    for (const [key, decision] of this.rememberedDecisions) if (decision.sessionId === sessionId) this.rememberedDecisions.delete(key);
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
   *   requester's; `APPROVAL_IDENTITY_MISSING` when `remember` names an identity the call lacks.
   *
   * @example
   * const result = await approvals.approve('appr_1');
   */
  async approve(id: string, options: ApproveOptions = {}): Promise<ToolResult> {
    const approval = this.pendingOrThrow(id);
    const origin = this.origins.get(id);
    const view = origin === undefined ? this.restoredView(approval, options) : this.checkOrigin(approval, options);
    const remembered = this.rememberFor(approval, options.remember, { decision: 'approved' });
    await this.claim(approval, 'approved');
    if (remembered !== undefined) this.remember(remembered);
    const grant: Grant = { manager: this, id, callId: approval.call.id, toolName: approval.toolName, used: false };
    this.grants.set(id, grant);
    const marked = ToolExecutionContext.of().toBuilder().register(GRANT, grant).build();
    const call: ToolCall = { id: approval.call.id, name: approval.toolName, arguments: { ...approval.arguments } };
    try {
      let result: ToolResult;
      if (origin !== undefined) {
        result = await origin.resume(call, { context: marked, ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
      } else {
        const callOptions: CallOptions = { context: ToolExecutionContext.merge(options.context, marked) };
        if (options.agentContext) callOptions.agentContext = options.agentContext;
        if (options.signal) callOptions.signal = options.signal;
        if (options.onProgress) callOptions.onProgress = options.onProgress;
        result = await view!.callTool(call, callOptions);
      }
      this.decisionsSubject.next({ approval, decision: 'approved', result, decidedAt: this.now() });
      return result;
    } finally {
      this.grants.delete(id);
    }
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
    const approval = this.pendingOrThrow(id);
    const remembered = this.rememberFor(approval, options.remember, { decision: 'rejected', reason });
    await this.claim(approval, 'rejected');
    if (remembered !== undefined) this.remember(remembered);
    const result: ToolResult = {
      ...errorResult(
        `A person rejected the call to tool '${approval.toolName}' (approval ${approval.id}): ${reason}. ` +
          'The tool did not run. Do not call it again unless the user asks for it.',
        'APPROVAL_REJECTED',
      ),
      toolCallId: approval.call.id,
      name: approval.toolName,
    };
    this.decisionsSubject.next({ approval, decision: 'rejected', result, decidedAt: this.now() });
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
   * @throws ToolkitError `INVALID_DEFINITION` when `state` is not a serialised approval state
   *   (checked whole before anything is loaded).
   *
   * @example
   * const approvals = new ApprovalManager(policy);
   * approvals.restore(await fs.readFile('approvals.json', 'utf8'));
   * await approvals.approve(id, { toolkit, context: ToolExecutionContext.of(user) });
   */
  restore(state: string | SerializedApprovals): number {
    let parsed: unknown;
    try {
      parsed = typeof state === 'string' ? JSON.parse(state) : state;
    } catch (e) {
      throw new ToolkitError('INVALID_DEFINITION', `ApprovalManager.restore(): the text is not JSON (${(e as Error).message}).`, { cause: e });
    }
    const snapshot = checkSnapshot(parsed, this.now());
    this.memory.load(snapshot.decided.filter((d) => !this.held.has(d.id)), snapshot.horizon);
    for (const decision of snapshot.remembered) this.remember(decision);
    let added = 0;
    for (const approval of snapshot.pending) {
      if (this.held.has(approval.id) || this.memory.isDecided({ id: approval.id, callKey: callKeyOf(approval.sessionId, approval.call.id), createdAt: approval.createdAt })) continue;
      if (this.overLimit(approval.sessionId) !== undefined) continue;
      this.add(freezeApproval(approval));
      added++;
    }
    if (added) this.publish();
    return added;
  }

  private async check(ctx: HookContext): Promise<BeforeHookDecision> {
    const grant = ctx.context.get<Grant>(GRANT);
    if (grant && grant.manager === this && !grant.used && this.grants.get(grant.id) === grant && grant.callId === ctx.call.id && grant.toolName === ctx.tool.name) {
      grant.used = true; // exactly one run per approval, even if the grant leaked into another call
      return undefined;
    }
    const reason = await this.requirement(ctx);
    if (reason === undefined) return undefined;
    const principal = this.principal(ctx);
    const remembered = this.lookupRemembered(ctx.sessionId, principal, ctx.tool.name);
    if (remembered?.decision === 'approved') return undefined;
    if (remembered?.decision === 'rejected') {
      return {
        action: 'respond',
        result: errorResult(
          `A person rejected calls to tool '${ctx.tool.name}' for ${remembered.sessionId !== undefined ? 'this session' : 'you'}: ${remembered.reason ?? 'no reason given'}. ` +
            'The tool did not run. Do not call it again unless the user asks for it.',
          'APPROVAL_REJECTED',
        ),
      };
    }
    const full = this.overLimit(ctx.sessionId);
    if (full !== undefined) return { action: 'respond', result: errorResult(`Tool '${ctx.tool.name}' needs a person's approval, but ${full}. The call did not run; wait for the pending ones to be decided.`, 'APPROVAL_LIMIT_EXCEEDED') };
    return { action: 'respond', result: this.hold(ctx, reason, principal) };
  }

  private principal(ctx: HookContext): string | undefined {
    const principal = this.principalOf?.(ctx);
    return typeof principal === 'string' && principal !== '' ? principal : undefined;
  }

  private lookupRemembered(sessionId: string | undefined, principal: string | undefined, toolName: string): RememberedDecision | undefined {
    const bySession = sessionId !== undefined ? this.rememberedDecisions.get(rememberKey({ sessionId }, toolName)!) : undefined;
    return bySession ?? (principal !== undefined ? this.rememberedDecisions.get(rememberKey({ principal }, toolName)!) : undefined);
  }

  private async requirement(ctx: HookContext): Promise<string | undefined> {
    const name = ctx.tool.name;
    if (this.tools.has(name)) return `tool '${name}' always needs approval`;
    const risk = ctx.tool.behaviour?.risk;
    if (this.minRisk !== undefined && risk !== undefined && RISK_RANK[risk] >= RISK_RANK[this.minRisk]) {
      return `tool '${name}' has risk level '${risk}'`;
    }
    if (!this.when) return undefined;
    const verdict = await this.when(ctx);
    if (typeof verdict === 'string') return verdict.trim() !== '' ? verdict : undefined;
    return verdict === true ? `the approval policy requires it for tool '${name}'` : undefined;
  }

  /** Why no further call of `sessionId` can be held, or `undefined` when one can. */
  private overLimit(sessionId: string | undefined): string | undefined {
    if (this.held.size >= this.maxPending) return `${this.maxPending} calls are already waiting for approval (the limit)`;
    if ((this.heldPerSession.get(sessionId ?? '') ?? 0) >= this.maxPendingPerSession) {
      return `${this.maxPendingPerSession} calls of this ${sessionId !== undefined ? 'session' : 'caller'} are already waiting for approval (the limit)`;
    }
    return undefined;
  }

  private hold(ctx: HookContext, reason: string, principal: string | undefined): ToolResult {
    const id = this.generateId();
    if (this.held.has(id) || this.memory.decisionOf(id) !== undefined) {
      throw new ToolkitError('INVALID_DEFINITION', `ApprovalManager: generateId() returned '${id}' twice; approval ids must be unique.`);
    }
    const approval = freezeApproval({
      id,
      call: { id: ctx.call.id, name: ctx.call.name, arguments: ctx.call.arguments },
      toolName: ctx.tool.name,
      arguments: { ...ctx.arguments },
      ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
      ...(principal !== undefined ? { principal } : {}),
      reason,
      createdAt: this.now(),
    });
    this.add(approval);
    const origin = ctx[CALL_ORIGIN];
    if (origin !== undefined) this.origins.set(id, origin);
    this.publish();
    const data: PendingApprovalData = { approvalId: id };
    return {
      forLLM:
        `Tool '${ctx.tool.name}' needs a person's approval before it runs (${reason}). ` +
        `The call is waiting for approval under id '${id}'; its result will be sent once a person approves or rejects it. ` +
        'Do not call the tool again for this request.',
      silent: false,
      isError: false,
      async: true,
      data,
    };
  }

  private add(approval: PendingApproval): void {
    this.held.set(approval.id, approval);
    const key = approval.sessionId ?? '';
    this.heldPerSession.set(key, (this.heldPerSession.get(key) ?? 0) + 1);
  }

  private pendingOrThrow(id: string): PendingApproval {
    const approval = this.held.get(id);
    if (approval !== undefined) return approval;
    const earlier = this.memory.decisionOf(id);
    throw notPending(
      earlier
        ? `Approval '${id}' was already ${earlier}; a decision is taken once and the call does not run again.`
        : `No pending approval '${id}'.`,
    );
  }

  /** Where a restored call (no origin in this process) runs; the application must re-supply its context. */
  private restoredView(approval: PendingApproval, options: ApproveOptions): ToolView {
    const session = approval.sessionId;
    if (options.context === undefined || (options.view === undefined && options.toolkit === undefined)) {
      throw new ToolkitError(
        'APPROVAL_CONTEXT_REQUIRED',
        `Approval '${approval.id}' was restored from a snapshot: the requester's context is not known here. ` +
          `Re-supply it: approve(id, { ${options.toolkit === undefined && options.view === undefined ? 'toolkit, ' : ''}context }) with the context of ` +
          `${approval.principal !== undefined ? `principal '${approval.principal}'` : 'the requester'}${session !== undefined ? ` in session '${session}'` : ''} ` +
          '(ToolExecutionContext.EMPTY to say there is none). The call did not run and stays pending.',
      );
    }
    if (options.view !== undefined) {
      if (options.view.sessionId !== session) throw this.conflict(approval, `the view belongs to ${describeSession(options.view.sessionId)}`);
      return options.view;
    }
    return session !== undefined ? options.toolkit!.session(session) : options.toolkit!;
  }

  /** A call held here runs through its origin: options that would change its requester are refused. */
  private checkOrigin(approval: PendingApproval, options: ApproveOptions): undefined {
    if (options.context !== undefined || options.agentContext !== undefined) throw this.conflict(approval, 'a context was given');
    if (options.view !== undefined && options.view.sessionId !== approval.sessionId) throw this.conflict(approval, `the view belongs to ${describeSession(options.view.sessionId)}`);
    return undefined;
  }

  private conflict(approval: PendingApproval, what: string): ToolkitError {
    return new ToolkitError(
      'APPROVAL_CONTEXT_CONFLICT',
      `Approval '${approval.id}' runs exactly as it was requested (${describeSession(approval.sessionId)}, with the requester's context), but ${what}. ` +
        'Call approve(id) without context or view; they are only for approvals restored from a snapshot. The call did not run and stays pending.',
    );
  }

  /** The decision to remember, or `undefined`; throws before anything changes when the call lacks the identity. */
  private rememberFor(
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

  /** Records the decision in the store (atomic); a lost claim drops the stale copy and throws. */
  private async claim(approval: PendingApproval, decision: 'approved' | 'rejected'): Promise<void> {
    const claim: DecisionClaim = { id: approval.id, callKey: callKeyOf(approval.sessionId, approval.call.id), createdAt: approval.createdAt, decision };
    if (this.held.get(approval.id) !== approval) throw notPending(`Approval '${approval.id}' is being decided already.`);
    // removed first, synchronously: two decisions can never both win here
    const origin = this.origins.get(approval.id);
    this.release(approval);
    let won: boolean;
    try {
      won = this.decisions === this.memory ? this.memory.claim(claim) : (await this.decisions.claim(claim)) && this.memory.claim(claim);
    } catch (error) {
      // the store could not record the decision: nothing was decided, the call stays pending
      this.add(approval);
      if (origin !== undefined) this.origins.set(approval.id, origin);
      this.publish();
      throw new ToolkitError(
        'APPROVAL_STORE_FAILED',
        `Approval '${approval.id}' could not be decided: the decision store failed (${describeThrown(error)}). Nothing ran; the call stays pending.`,
        { cause: error },
      );
    }
    if (!won) throw notPending(`Approval '${approval.id}' was already decided (here, in an earlier copy, or by another process); the call does not run again.`);
  }

  private release(approval: PendingApproval): void {
    this.held.delete(approval.id);
    this.origins.delete(approval.id);
    const key = approval.sessionId ?? '';
    const count = (this.heldPerSession.get(key) ?? 1) - 1;
    if (count > 0) this.heldPerSession.set(key, count);
    else this.heldPerSession.delete(key);
    this.publish();
  }

  private remember(decision: RememberedDecision): void {
    const key = rememberKey(decision, decision.toolName);
    if (key !== undefined) this.rememberedDecisions.set(key, Object.freeze({ ...decision }));
  }

  private list(): readonly PendingApproval[] {
    return (this.snapshot ??= Object.freeze([...this.held.values()]));
  }

  private publish(): void {
    this.snapshot = undefined;
    if (this.changes.observed) this.changes.next();
  }
}

function warnOnce(): (error: unknown, source: string) => void {
  let warned = false;
  return (error, source) => {
    if (warned) return;
    warned = true;
    process.emitWarning(`A subscriber of ApprovalManager.${source} threw (${describeThrown(error)}); pass onCallbackError to handle it.`, { code: 'TOOLWRIGHT_CALLBACK_FAILED' });
  };
}

/** `onCallbackError` is a user callback too: what it throws goes to the one-time warning, never into RxJS. */
function reportSafely(onCallbackError: (error: unknown, source: string) => void): (error: unknown, source: string) => void {
  let warned = false;
  return (error, source) => {
    try {
      onCallbackError(error, source);
    } catch (failure) {
      if (warned) return;
      warned = true;
      process.emitWarning(`ApprovalManager's onCallbackError threw (${describeThrown(failure)}) while reporting a failure of ${source}.`, { code: 'TOOLWRIGHT_CALLBACK_FAILED' });
    }
  };
}

function describeSession(sessionId: string | undefined): string {
  return sessionId !== undefined ? `session '${sessionId}'` : 'no session';
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

function freezeApproval(approval: PendingApproval): PendingApproval {
  return Object.freeze({ ...approval, call: Object.freeze({ ...approval.call }), arguments: Object.freeze({ ...approval.arguments }) });
}
