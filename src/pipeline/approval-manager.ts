import { randomUUID } from 'node:crypto';
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { ToolExecutionContext } from '../common/execution-context';
import { errorResult } from '../common/results';
import type { ToolCall, ToolResult, ToolRisk } from '../common/tool-types';
import type { CallOptions } from '../executor/call-executor';
import { ToolkitError, type ToolkitErrorCode } from '../errors';
import type { BeforeHookDecision, HookContext, ToolHook } from '../toolkit/hooks';
import type { Toolkit } from '../toolkit/toolkit';
import type { ToolView } from '../toolkit/tool-view';

/**
 * A call waiting for a person's decision. Plain JSON (no functions, no class instances beyond
 * what the arguments hold): it survives `serialize()` / `restore()` across a process restart.
 * It never holds preset values: the arguments are the model's, as validated.
 *
 * @example
 * for (const p of approvals.pending()) ui.ask(`${p.toolName}(${JSON.stringify(p.arguments)}): ${p.reason}`, p.id);
 */
export interface PendingApproval {
  /** The approval's id (`approve(id)`, `reject(id)`); the model is told it too. */
  readonly id: string;
  /** The call as the model made it (its `id` is the call id the eventual result answers). */
  readonly call: Readonly<ToolCall>;
  /** The tool that would run. */
  readonly toolName: string;
  /** The validated arguments the tool will get when approved (after earlier hooks' rewrites). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The session the call belongs to, if any; an approved call runs in that session. */
  readonly sessionId?: string;
  /** Why the call needs approval, for the person deciding. */
  readonly reason: string;
  /** When the call was held (ms since the epoch). */
  readonly createdAt: number;
}

/**
 * What the `when` predicate of an {@link ApprovalPolicy} returns: `true` or a reason to hold the
 * call; `false`, `undefined` or `''` let it run.
 *
 * @example
 * const when = (ctx: HookContext): ApprovalRequirement => (Number(ctx.arguments.amount) > 1000 ? 'amount above 1,000' : false);
 */
export type ApprovalRequirement = boolean | string | undefined | void;

/**
 * Which calls need a person's approval. A call needs it when any rule matches.
 *
 * @example
 * const policy: ApprovalPolicy = { tools: ['send_payment'], minRisk: 'high', when: (ctx) => ctx.tool.behaviour?.annotations?.destructive };
 */
export interface ApprovalPolicy {
  /** Tools that always need approval, by name. */
  tools?: readonly string[];
  /** Tools whose `risk` is this level or higher (`'low'` < `'medium'` < `'high'`); tools without a risk never match. */
  minRisk?: ToolRisk;
  /** Any other rule: return `true` or a reason (shown to the person deciding) to hold the call. */
  when?: (ctx: HookContext) => ApprovalRequirement | Promise<ApprovalRequirement>;
}

/**
 * Options of {@link ApprovalManager} and {@link createApprovalHook}: the policy plus naming and clock.
 *
 * @example
 * new ApprovalManager({ minRisk: 'medium', generateId: () => `appr_${ulid()}` });
 */
export interface ApprovalManagerOptions extends ApprovalPolicy {
  /** The hook's name in errors (default `'approval'`). */
  name?: string;
  /** Makes approval ids (default: `'appr_'` + a random UUID). Ids must be unique. */
  generateId?: () => string;
  /** The clock (default `Date.now`). */
  now?: () => number;
}

/**
 * Where an approved call runs: a toolkit (the call's session is looked up in it) or a given view.
 *
 * @example
 * await approvals.approve(id, { toolkit });                        // in the call's own session
 * await approvals.approve(id, { view: toolkit.session('s-1') });  // in this view
 */
export type ApprovalTarget = { toolkit: Toolkit; view?: undefined } | { view: ToolView; toolkit?: undefined };

/**
 * Options of {@link ApprovalManager.approve}.
 *
 * @example
 * await approvals.approve(id, { toolkit, remember: 'session', context: ToolExecutionContext.of(user), signal });
 */
export type ApproveOptions = ApprovalTarget & {
  /** `'session'`: later calls of the same tool in the same session run without asking. */
  remember?: 'session';
  /** Call-level context objects for the run (a restored call has none of the original ones). */
  context?: ToolExecutionContext;
  /** Agent-level context objects for the run. */
  agentContext?: ToolExecutionContext;
  /** Aborts the approved run. */
  signal?: AbortSignal;
  /** Receives the run's progress. */
  onProgress?: CallOptions['onProgress'];
};

/**
 * Options of {@link ApprovalManager.reject}.
 *
 * @example
 * approvals.reject(id, 'no deletions in this conversation', { remember: 'session' });
 */
export interface RejectOptions {
  /** `'session'`: later calls of the same tool in the same session are rejected without asking. */
  remember?: 'session';
}

/**
 * A decision remembered for a session (`approve(id, { remember: 'session' })`).
 *
 * @example
 * approvals.remembered(); // [{ sessionId: 's-1', toolName: 'delete_file', decision: 'approved' }]
 */
export interface RememberedDecision {
  /** The session it applies to (absent: calls made without a session). */
  readonly sessionId?: string;
  /** The tool it applies to. */
  readonly toolName: string;
  /** What was decided. */
  readonly decision: 'approved' | 'rejected';
  /** The rejection's reason. */
  readonly reason?: string;
}

/**
 * A decision taken by `approve` / `reject`, as `decisions$` emits it.
 *
 * @example
 * approvals.decisions$.subscribe((d) => conversation.addToolResult(d.result));
 */
export interface ApprovalDecision {
  /** The approval decided. */
  readonly approval: PendingApproval;
  /** What was decided. */
  readonly decision: 'approved' | 'rejected';
  /** The result answering the original call: the tool's, or the rejection's. */
  readonly result: ToolResult;
  /** When it was decided (ms since the epoch). */
  readonly decidedAt: number;
}

/**
 * The serialised state of an {@link ApprovalManager} (`JSON.parse(manager.serialize())`).
 *
 * @example
 * approvals.pending$.subscribe(() => fs.writeFileSync('approvals.json', approvals.serialize()));
 */
export interface SerializedApprovals {
  /** Format version. */
  version: 1;
  /** The pending approvals. */
  pending: PendingApproval[];
  /** Decisions remembered per session. */
  remembered: RememberedDecision[];
  /** Ids decided recently, so that a stale copy of a pending approval cannot be restored and run again. */
  decided: { id: string; decision: 'approved' | 'rejected' }[];
}

/**
 * The `data` of a pending-approval result.
 *
 * @example
 * if (isPendingApprovalResult(result)) ui.highlight(result.data.approvalId);
 */
export interface PendingApprovalData {
  /** The id to approve or reject. */
  approvalId: string;
}

/**
 * The code of the `ToolkitError` thrown by `approve` / `reject` for an id that is unknown or
 * already decided. (Until the core lists it in `ToolkitErrorCode`, it is cast.)
 *
 * @example
 * try { await approvals.approve(id, { toolkit }); }
 * catch (e) { if (ToolkitError.is(e) && e.code === APPROVAL_NOT_PENDING) ui.say('Someone already decided.'); }
 */
export const APPROVAL_NOT_PENDING = 'APPROVAL_NOT_PENDING' satisfies ToolkitErrorCode;

const RISK_RANK: Readonly<Record<ToolRisk, number>> = { low: 0, medium: 1, high: 2 };
const DECIDED_MEMORY = 10_000;

/** Marks the approved run of one approval in the call's context; only the manager that made it honours it. */
const GRANT = Symbol('toolwright.approvalGrant');

interface Grant {
  readonly manager: ApprovalManager;
  readonly id: string;
  readonly callId: string;
  readonly toolName: string;
  used: boolean;
}

function rememberKey(sessionId: string | undefined, toolName: string): string {
  return `${sessionId === undefined ? '' : `s:${sessionId}`}\u0000${toolName}`;
}

function notPending(message: string): ToolkitError {
  return new ToolkitError(APPROVAL_NOT_PENDING, message);
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
 * serialisable {@link PendingApproval} is recorded here. A UI lists them (`pending()`,
 * `pending$`) and decides: `approve(id, { toolkit })` runs the call exactly once and resolves to
 * its result (answering the original call id), `reject(id, reason)` answers with an
 * `APPROVAL_REJECTED` error result. Feed either result back to the model as the answer to the
 * call. Decisions may be remembered per session, and the state survives a restart through
 * `serialize()` / `restore()`.
 *
 * Batch-safe: each call of a batch is held or run on its own, so the calls that need no approval
 * run at once and every held call keeps its own pending approval.
 *
 * An approved call runs through the whole pipeline again (other hooks, validation, timeout,
 * retry) with the arguments the person saw; only this manager's check is skipped, for that one
 * run. It runs in the call's session and with the tool's current availability there.
 *
 * @example
 * const approvals = new ApprovalManager({ minRisk: 'high', tools: ['send_payment'] });
 * toolkit.use(approvals.hook);
 * approvals.pending$.subscribe((list) => ui.showApprovals(list));
 * // later, when the person clicks "Approve":
 * const result = await approvals.approve(id, { toolkit, remember: 'session' });
 * messages.push({ role: 'tool', toolCallId: result.toolCallId!, content: result.forLLM });
 */
export class ApprovalManager {
  /** The hook to add with `toolkit.use(...)`; it holds the calls the policy matches. */
  readonly hook: ToolHook;

  private readonly tools: ReadonlySet<string>;
  private readonly minRisk: ToolRisk | undefined;
  private readonly when: ApprovalPolicy['when'];
  private readonly generateId: () => string;
  private readonly now: () => number;
  private readonly held = new Map<string, PendingApproval>();
  private readonly decided = new Map<string, 'approved' | 'rejected'>();
  private readonly rememberedDecisions = new Map<string, RememberedDecision>();
  private readonly grants = new Map<string, Grant>();
  private readonly pendingSubject = new BehaviorSubject<readonly PendingApproval[]>([]);
  private readonly decisionsSubject = new Subject<ApprovalDecision>();

  constructor(options: ApprovalManagerOptions = {}) {
    this.tools = new Set(options.tools ?? []);
    this.minRisk = options.minRisk;
    if (this.minRisk !== undefined && !(this.minRisk in RISK_RANK)) {
      throw new ToolkitError('INVALID_DEFINITION', `ApprovalManager: minRisk must be 'low', 'medium' or 'high', got '${String(this.minRisk)}'.`);
    }
    this.when = options.when;
    this.generateId = options.generateId ?? (() => `appr_${randomUUID()}`);
    this.now = options.now ?? Date.now;
    this.hook = { name: options.name ?? 'approval', before: (ctx) => this.check(ctx) };
  }

  /** The calls waiting for a decision, oldest first. */
  pending(): PendingApproval[] {
    return [...this.held.values()];
  }

  /** The pending approvals: the current list at once, then a new list on every change. */
  get pending$(): Observable<readonly PendingApproval[]> {
    return this.pendingSubject.asObservable();
  }

  /** Every decision, with the result that answers the original call (approvals emit once the run finished). */
  get decisions$(): Observable<ApprovalDecision> {
    return this.decisionsSubject.asObservable();
  }

  /** A pending approval by id. */
  get(id: string): PendingApproval | undefined {
    return this.held.get(id);
  }

  /** The decisions remembered per session. */
  remembered(): RememberedDecision[] {
    return [...this.rememberedDecisions.values()];
  }

  /** Forgets the decisions remembered for `sessionId` (e.g. when the session ends). Pending approvals stay. */
  forgetSession(sessionId: string): void {
    for (const [key, decision] of this.rememberedDecisions) if (decision.sessionId === sessionId) this.rememberedDecisions.delete(key);
  }

  /**
   * Approves a pending call: runs it once, in its session of `toolkit` (or in `view`), and
   * resolves to its result, which answers the original call id. Call-time faults of the run
   * (the tool is disabled now, it throws, times out…) come back as error results, as for any call.
   *
   * @throws ToolkitError `APPROVAL_NOT_PENDING` (the Promise rejects) when `id` is unknown or
   *   already decided — nothing runs; `INVALID_DEFINITION` when neither `toolkit` nor `view` is given.
   *
   * @example
   * const result = await approvals.approve('appr_1', { toolkit });
   */
  async approve(id: string, options: ApproveOptions): Promise<ToolResult> {
    const target = options.view ?? options.toolkit;
    if (!target) {
      throw new ToolkitError('INVALID_DEFINITION', `approve('${id}') needs { toolkit } or { view }: where the approved call should run.`);
    }
    const approval = this.take(id, 'approved');
    if (options.remember === 'session') this.remember({ ...this.scope(approval), toolName: approval.toolName, decision: 'approved' });
    const view = options.view ?? (approval.sessionId !== undefined ? options.toolkit!.session(approval.sessionId) : options.toolkit!);
    const grant: Grant = { manager: this, id, callId: approval.call.id, toolName: approval.toolName, used: false };
    this.grants.set(id, grant);
    const base = options.context ?? ToolExecutionContext.EMPTY;
    const context = base.toBuilder().register(GRANT, grant).build();
    const callOptions: CallOptions = { context };
    if (options.agentContext) callOptions.agentContext = options.agentContext;
    if (options.signal) callOptions.signal = options.signal;
    if (options.onProgress) callOptions.onProgress = options.onProgress;
    try {
      const result = await view.callTool({ id: approval.call.id, name: approval.toolName, arguments: { ...approval.arguments } }, callOptions);
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
   * @throws ToolkitError `APPROVAL_NOT_PENDING` when `id` is unknown or already decided.
   *
   * @example
   * const result = approvals.reject('appr_1', 'payments above 1,000 EUR need a second signature');
   */
  reject(id: string, reason = 'a person declined it', options: RejectOptions = {}): ToolResult {
    const approval = this.take(id, 'rejected');
    if (options.remember === 'session') this.remember({ ...this.scope(approval), toolName: approval.toolName, decision: 'rejected', reason });
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
    return {
      version: 1,
      pending: this.pending(),
      remembered: this.remembered(),
      decided: [...this.decided].map(([id, decision]) => ({ id, decision })),
    };
  }

  /**
   * Loads a state written by `serialize()` (e.g. by a process before it restarted) into this
   * manager: its pending approvals can then be approved with a fresh toolkit. Approvals already
   * pending or decided here are skipped.
   *
   * @returns the number of pending approvals added.
   * @throws ToolkitError `INVALID_DEFINITION` when `state` is not a serialised approval state.
   *
   * @example
   * const approvals = new ApprovalManager(policy);
   * approvals.restore(await fs.readFile('approvals.json', 'utf8'));
   * await approvals.approve(id, { toolkit });
   */
  restore(state: string | SerializedApprovals): number {
    let parsed: unknown;
    try {
      parsed = typeof state === 'string' ? JSON.parse(state) : state;
    } catch (e) {
      throw new ToolkitError('INVALID_DEFINITION', `ApprovalManager.restore(): the text is not JSON (${(e as Error).message}).`, { cause: e });
    }
    const snapshot = checkSnapshot(parsed);
    for (const { id, decision } of snapshot.decided) if (!this.held.has(id)) this.markDecided(id, decision);
    for (const decision of snapshot.remembered) this.remember(decision);
    let added = 0;
    for (const approval of snapshot.pending) {
      if (this.held.has(approval.id) || this.decided.has(approval.id)) continue;
      this.held.set(approval.id, freezeApproval(approval));
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
    const remembered = this.rememberedDecisions.get(rememberKey(ctx.sessionId, ctx.tool.name));
    if (remembered?.decision === 'approved') return undefined;
    if (remembered?.decision === 'rejected') {
      return {
        action: 'respond',
        result: errorResult(
          `A person rejected calls to tool '${ctx.tool.name}' for this session: ${remembered.reason ?? 'no reason given'}. ` +
            'The tool did not run. Do not call it again unless the user asks for it.',
          'APPROVAL_REJECTED',
        ),
      };
    }
    return { action: 'respond', result: this.hold(ctx, reason) };
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

  private hold(ctx: HookContext, reason: string): ToolResult {
    const id = this.generateId();
    if (this.held.has(id) || this.decided.has(id)) {
      throw new ToolkitError('INVALID_DEFINITION', `ApprovalManager: generateId() returned '${id}' twice; approval ids must be unique.`);
    }
    const approval = freezeApproval({
      id,
      call: { id: ctx.call.id, name: ctx.call.name, arguments: ctx.call.arguments },
      toolName: ctx.tool.name,
      arguments: { ...ctx.arguments },
      ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
      reason,
      createdAt: this.now(),
    });
    this.held.set(id, approval);
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

  /** Removes a pending approval for a decision (synchronously, so two decisions can never both win). */
  private take(id: string, decision: 'approved' | 'rejected'): PendingApproval {
    const approval = this.held.get(id);
    if (!approval) {
      const earlier = this.decided.get(id);
      throw notPending(
        earlier
          ? `Approval '${id}' was already ${earlier}; a decision is taken once and the call does not run again.`
          : `No pending approval '${id}'. Pending: ${[...this.held.keys()].slice(0, 10).join(', ') || '(none)'}.`,
      );
    }
    this.held.delete(id);
    this.markDecided(id, decision);
    this.publish();
    return approval;
  }

  private markDecided(id: string, decision: 'approved' | 'rejected'): void {
    this.decided.set(id, decision);
    if (this.decided.size > DECIDED_MEMORY) this.decided.delete(this.decided.keys().next().value!);
  }

  private scope(approval: PendingApproval): { sessionId?: string } {
    return approval.sessionId !== undefined ? { sessionId: approval.sessionId } : {};
  }

  private remember(decision: RememberedDecision): void {
    this.rememberedDecisions.set(rememberKey(decision.sessionId, decision.toolName), Object.freeze({ ...decision }));
  }

  private publish(): void {
    this.pendingSubject.next(Object.freeze(this.pending()));
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

function freezeApproval(approval: PendingApproval): PendingApproval {
  return Object.freeze({ ...approval, call: Object.freeze({ ...approval.call }), arguments: Object.freeze({ ...approval.arguments }) });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkSnapshot(value: unknown): SerializedApprovals {
  const fail = (why: string): never => {
    throw new ToolkitError('INVALID_DEFINITION', `ApprovalManager.restore(): not a serialised approval state (${why}). Pass what serialize() returned.`);
  };
  if (!isRecord(value)) return fail('expected an object');
  if (value.version !== 1) return fail(`unsupported version ${JSON.stringify(value.version)}`);
  const pending = Array.isArray(value.pending) ? value.pending : fail('pending must be an array');
  pending.forEach((p: unknown, i) => {
    const ok =
      isRecord(p) &&
      typeof p.id === 'string' &&
      typeof p.toolName === 'string' &&
      typeof p.reason === 'string' &&
      typeof p.createdAt === 'number' &&
      isRecord(p.arguments) &&
      isRecord(p.call) &&
      typeof p.call.id === 'string' &&
      typeof p.call.name === 'string' &&
      (p.sessionId === undefined || typeof p.sessionId === 'string');
    if (!ok) fail(`pending[${i}] lacks id, call, toolName, arguments, reason or createdAt`);
  });
  const remembered = value.remembered === undefined ? [] : Array.isArray(value.remembered) ? value.remembered : fail('remembered must be an array');
  remembered.forEach((r: unknown, i) => {
    if (!isRecord(r) || typeof r.toolName !== 'string' || (r.decision !== 'approved' && r.decision !== 'rejected')) {
      fail(`remembered[${i}] needs toolName and decision 'approved' or 'rejected'`);
    }
  });
  const decided = value.decided === undefined ? [] : Array.isArray(value.decided) ? value.decided : fail('decided must be an array');
  decided.forEach((d: unknown, i) => {
    if (!isRecord(d) || typeof d.id !== 'string' || (d.decision !== 'approved' && d.decision !== 'rejected')) fail(`decided[${i}] needs id and decision`);
  });
  return { version: 1, pending, remembered, decided } as SerializedApprovals;
}
