import type { ToolExecutionContext } from '../model/execution-context';
import type { ToolwrightLogger } from '../model/logger';
import type { ToolResult, ToolRisk } from '../model/tool-types';
import type { CallOptions } from '../executor/executor-parts';
import type { HookContext } from '../executor/hook-types';
import type { Toolkit } from '../toolkit/toolkit';
import type { ToolView } from '../toolkit/tool-view';
import type { TravellingContexts } from '../model/travelling-contexts';
import type { ApprovalDecisionStore, DecidedRecord } from './approval-decisions';
import type { PendingApproval, RememberedDecision } from './approval-records';
import type { ApprovalStore } from './approval-store';

export type { PendingApproval, RememberedDecision } from './approval-records';

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
  tools?: readonly string[] | undefined;
  /** Tools whose `risk` is this level or higher (`'low'` < `'medium'` < `'high'`); tools without a risk never match. */
  minRisk?: ToolRisk | undefined;
  /** Any other rule: return `true` or a reason (shown to the person deciding) to hold the call. */
  when?: ((ctx: HookContext) => ApprovalRequirement | Promise<ApprovalRequirement>) | undefined;
}

/**
 * Options of {@link ApprovalManager} and {@link createApprovalHook}: the policy plus naming and clock.
 *
 * @example
 * new ApprovalManager({ minRisk: 'medium', generateId: () => `appr_${ulid()}` });
 */
export interface ApprovalManagerOptions extends ApprovalPolicy {
  /** The hook's name in errors (default `'approval'`). */
  name?: string | undefined;
  /**
   * Makes approval ids (default: `'appr_'` + a random UUID). Ids must be unique and unguessable
   * (whoever knows one can name it to your UI): a repeated one fails its call (`HOOK_FAILED`,
   * caused by `INVALID_OPTIONS`); nothing runs.
   */
  generateId?: (() => string) | undefined;
  /** The clock (default `Date.now`). */
  now?: (() => number) | undefined;
  /**
   * Names who made a call (a user id from the context, say): recorded on the pending approval,
   * filterable with `pending({ principal })`, and the scope of `remember: 'principal'`.
   *
   * @example
   * new ApprovalManager({ tools: ['pay'], principal: (ctx) => ctx.context.get(UserContext)?.id });
   */
  principal?: ((ctx: HookContext) => string | undefined) | undefined;
  /** Where decisions are recorded so that a decided call never runs again (default: in memory, the last 10,000). Not with `store`. */
  decisions?: ApprovalDecisionStore | undefined;
  /**
   * Where the whole approval state lives when several processes share it (or one must survive a
   * restart): held calls, tombstones of decided ones, remembered decisions and the audit trail
   * (`redisApprovalStore` from `toolwright/redis`, `postgresApprovalStore` from
   * `toolwright/postgres`). Every manager with the same store lists the same calls
   * (`pending()`, `pending$`, refreshed when the store changes; `refresh()` reloads now) and may
   * decide any of them: the call runs exactly once, on the process that approved it, as its
   * requester. Default: in this process's memory only.
   *
   * @example
   * new ApprovalManager({ tools: ['send_payment'], store: redisApprovalStore({ connection }), contexts: { user: UserContext } });
   */
  store?: ApprovalStore | undefined;
  /**
   * The context objects stored with each held call (with `store`), by name: a call held in another
   * process, or before a restart, then runs with them rebuilt (`approve(id, { toolkit })`); the
   * requester's `Principal` is stored too. Declare the same in every process. Context that is
   * not declared must be re-supplied (`approve(id, { toolkit, context })`).
   */
  contexts?: TravellingContexts | undefined;
  /**
   * With a `store`: a secret every process sharing it knows (32+ characters or bytes). Each held
   * call's digest is then an HMAC under it, so that whoever can write to the store but lacks the
   * key cannot forge a held call, or change one, that any process would run. Never stored or shown.
   */
  signingKey?: string | Uint8Array | undefined;
  /**
   * Most calls held at once (default 1,000). A call over the cap is answered with an
   * `APPROVAL_LIMIT_EXCEEDED` error result and does not run.
   */
  maxPending?: number | undefined;
  /**
   * Most calls held at once for one requester (default 100): a session (and its principal), or,
   * for calls without a session, the principal the `principal` option names. Calls with neither
   * share one bucket.
   */
  maxPendingPerSession?: number | undefined;
  /**
   * Ask the requester's own client before holding a call: when the call came from a client that
   * can be asked (over MCP, an MCP client with the `elicitation` capability), its user gets the
   * question at once as an `elicitation/create` form; accept approves (the call runs now, as its
   * requester), decline or cancel reject it (`APPROVAL_REJECTED`). The decision is recorded like
   * `approve`/`reject` (`decisions$`, the decision store) and never remembered. Without such a
   * client, or when its answer fails, the call is held as usual. Default `false`.
   */
  elicitation?: boolean | ApprovalElicitationOptions | undefined;
  /**
   * Receives what a subscriber of `pending$` or `decisions$` threw, and (source `'store'`) a
   * failure of the `store` that no call answers (default: one process warning). A throwing
   * subscriber never crashes the process nor fails a decision.
   */
  onCallbackError?: ((error: unknown, source: string) => void) | undefined;
  /**
   * Where approvals are logged at `info` (default: nowhere): each call held (`approval_requested`,
   * with a `store` also those held by other processes) and each decision (`approval_approved`,
   * `approval_rejected`, with `decidedBy`), naming the approval, tool, call, session and principal;
   * never the arguments or the reason (which may quote them). See {@link ToolwrightLogger}.
   *
   * @example
   * new ApprovalManager({ tools: ['send_payment'], logger: pino() });
   */
  logger?: ToolwrightLogger | undefined;
}

/**
 * Options of asking the requester's client for approval (`ApprovalManagerOptions.elicitation`).
 *
 * @example
 * new ApprovalManager({ tools: ['send_payment'], elicitation: { message: (a) => `Send ${String(a.arguments.amount)} EUR?`, timeoutMs: 120_000 } });
 */
export interface ApprovalElicitationOptions {
  /** The question (default: the tool, a preview of its arguments and why it needs approval). */
  message?: ((approval: PendingApproval) => string) | undefined;
  /** How long to wait for the answer before holding the call instead (default: the client's request timeout). */
  timeoutMs?: number | undefined;
}

/**
 * Whom a remembered decision covers: every later call of the tool in the same session
 * (`'session'`: by the same principal too, when the call had one; until the session ends), or by
 * the same principal (`'principal'`, see the manager's `principal` option).
 * A call without that identity cannot be remembered (`APPROVAL_IDENTITY_MISSING`): a decision
 * never covers everyone.
 *
 * @example
 * await approvals.approve(id, { remember: 'principal' });
 */
export type RememberScope = 'session' | 'principal';

/**
 * Options of {@link ApprovalManager.approve}.
 *
 * A call held in this process runs exactly as it was requested: in its view (its session, or the
 * scope of the skill run that made it), with its call-level and agent-level context — `toolkit`,
 * `view`, `context` and `agentContext` are then not needed, and a `context`, `agentContext` or a
 * view of another session is refused (`APPROVAL_CONTEXT_CONFLICT`). A call restored from a
 * snapshot has lost its context objects: the application re-supplies them — `context` (even
 * `ToolExecutionContext.EMPTY`, to say "none") and `toolkit` or `view` (of the call's session) —
 * or the approval is refused (`APPROVAL_CONTEXT_REQUIRED`); it never runs with a default identity.
 *
 * @example
 * await approvals.approve(id, { remember: 'session', signal });                                   // held here
 * await approvals.approve(id, { toolkit, context: ToolExecutionContext.of(await users.load(p.principal)) }); // restored
 */
export interface ApproveOptions {
  /** Where a restored call runs: its session of this toolkit (or the toolkit's own view). */
  toolkit?: Toolkit | undefined;
  /** Where a restored call runs: a view of the call's session. */
  view?: ToolView | undefined;
  /** Remember the approval for later calls of the same tool by the same session or principal. */
  remember?: RememberScope | undefined;
  /** A restored call's call-level context objects (required for restored calls). */
  context?: ToolExecutionContext | undefined;
  /** A restored call's agent-level context objects. */
  agentContext?: ToolExecutionContext | undefined;
  /** Aborts the approved run. */
  signal?: AbortSignal | undefined;
  /** Receives the run's progress. */
  onProgress?: CallOptions['onProgress'] | undefined;
  /** With a `store`: the digest of the call as shown ({@link PendingApproval.digest}); another call in the store is refused (`APPROVAL_CHANGED`). */
  digest?: string | undefined;
  /** Who decides (a user id, never a secret): on `decisions$`, in the `logger`'s lines, and with a `store` in the audit trail. */
  decidedBy?: string | undefined;
}

/**
 * Which pending approvals to list: one session's (so that its UI never shows another session's
 * calls and arguments), or one principal's.
 *
 * @example
 * approvals.pending({ sessionId: 'conversation-7' });
 */
export interface PendingFilter {
  /** Only calls of this session. */
  readonly sessionId?: string | undefined;
  /** Only calls of this principal. */
  readonly principal?: string | undefined;
}

/**
 * Options of {@link ApprovalManager.reject}.
 *
 * @example
 * approvals.reject(id, 'no deletions in this conversation', { remember: 'session' });
 */
export interface RejectOptions {
  /** Reject later calls of the same tool by the same session or principal without asking. */
  remember?: RememberScope | undefined;
  /** With a `store`: the digest of the call as shown (see {@link ApproveOptions.digest}). */
  digest?: string | undefined;
  /** Who decides: on `decisions$` and in the `logger`'s lines, and with a `store` in the audit trail. */
  decidedBy?: string | undefined;
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
  /** Who decided: the `decidedBy` given to `approve` / `reject` (absent when none was). */
  readonly decidedBy?: string | undefined;
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
  decided: DecidedRecord[];
  /** Approvals held at or before this time (ms) count as decided: their record rolled out of memory. */
  horizon?: number;
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
