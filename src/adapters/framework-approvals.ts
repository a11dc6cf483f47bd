import { isDeepStrictEqual } from 'node:util';
import { errorResult } from '../model/results';
import { ToolExecutionContext } from '../model/execution-context';
import { Principal } from '../model/principal';
import type { ToolResult } from '../model/tool-types';
import { ToolkitError } from '../errors';
import type { CallOptions } from '../executor/executor-parts';
import type { ToolView } from '../toolkit/tool-view';
import { callThroughView, type FrameworkCall, type FrameworkToolsOptions } from './view-tools';

/** A call an approval manager holds, as the adapters read it (a `PendingApproval`). */
export interface HeldCall {
  /** The approval's id. */
  readonly id: string;
  /** The call as the model made it. */
  readonly call: { readonly id: string; readonly arguments: unknown };
  /** The tool that would run. */
  readonly toolName: string;
  /** The requester's session, if any. */
  readonly sessionId?: string | undefined;
  /** The requester's principal, as the manager's `principal` option named it, if any. */
  readonly principal?: string | undefined;
}

/**
 * What the adapters use of an `ApprovalManager` (which is one): its pending calls and its
 * decisions, with the options the adapters pass.
 */
export interface FrameworkApprovalManager {
  /** The calls waiting for a decision (of one session with a filter). */
  pending(filter?: { readonly sessionId?: string | undefined }): readonly HeldCall[];
  /** Reloads the pending calls from the manager's store, if it has one. */
  refresh(): Promise<void>;
  /** Runs a held call once, as its requester. */
  approve(
    id: string,
    options: {
      decidedBy?: string | undefined;
      signal?: AbortSignal | undefined;
      onProgress?: CallOptions['onProgress'];
      view?: ToolView | undefined;
      context?: ToolExecutionContext | undefined;
    },
  ): Promise<ToolResult>;
  /** Rejects a held call (a tombstone). */
  reject(id: string, reason: string, options: { decidedBy?: string | undefined }): Promise<ToolResult>;
}

/**
 * Lets an agent framework's own approval flow decide the calls toolwright holds (the adapters'
 * `approvals` option). There is one approval: toolwright's. When the framework asks whether a call
 * needs approval, the call goes through `view.callTool`; if the toolkit's `ApprovalManager` holds
 * it (its policy, `authorize` answering `'approval'`), the framework is told "yes" and shows its
 * approval UI; otherwise the call has already run and the framework gets its result. The
 * framework's approval runs the held call through `manager.approve` (once, as its requester, with
 * the arguments held), its denial is `manager.reject` (a tombstone). An approval for another call
 * id, for edited arguments, or for a call decided already is refused: nothing runs.
 *
 * @example
 * const approvals = new ApprovalManager({ tools: ['send_payment'], store });
 * toolkit.use(approvals.hook);
 * const tools = toAiSdkTools(toolkit.session(chatId), { approvals: { manager: approvals, decidedBy: userId } });
 */
export interface FrameworkApprovals {
  /** The `ApprovalManager` whose hook the toolkit uses (`toolkit.use(manager.hook)`). */
  readonly manager: FrameworkApprovalManager;
  /** Who decides through this framework (e.g. the signed-in user); written to the audit record of each decision. */
  readonly decidedBy?: string | undefined;
  /**
   * The requester these tools serve, as the manager's `principal` option names them. Default: the
   * id of the `Principal` in the call's context (the adapter's `context` merged with the
   * framework's run context). A call held for another principal is never approved or rejected
   * through these tools; one held without a principal is matched by session alone.
   */
  readonly principal?: string | undefined;
}

/** @internal A framework call with the id the framework gave it (required: the approval is keyed by it). */
export type KeyedCall = FrameworkCall & { readonly id: string };

/** How many calls that ran at the framework's "needs approval?" question wait for their `execute` (and how many denials are remembered). */
const MAX_RAN = 1_000;

/**
 * The arguments as plain JSON data: the model's JSON text parsed, an object taken through JSON,
 * so that key order, spacing and prototypes do not matter when two are compared.
 */
function argumentValue(args: unknown): unknown {
  try {
    return JSON.parse(typeof args === 'string' ? args : JSON.stringify(args)) as unknown;
  } catch {
    return args;
  }
}

/** True for the answer of a call an approval manager held (`isPendingApprovalResult`): not an error, async, with the approval's id. */
function isHeldResult(result: ToolResult): boolean {
  const data = result.data as { approvalId?: unknown } | null | undefined;
  return !result.isError && result.async && typeof data?.approvalId === 'string';
}

/** A refusal the model and the framework get as the call's error result. */
function refused(message: string, code: string, call: KeyedCall): ToolResult {
  return { ...errorResult(message, code), toolCallId: call.id, name: call.name };
}

/** The refusal of a framework's approval that the manager refused (decided meanwhile elsewhere: not pending). */
function refusalOf(error: ToolkitError, call: KeyedCall): ToolResult {
  return error.code === 'APPROVAL_NOT_PENDING' ? notPending(call) : refused(error.message, error.code, call);
}

/** The refusal of an approval for a call that is not (or no longer) held. */
function notPending(call: KeyedCall): ToolResult {
  return refused(`No approval is pending for call '${call.id}' of tool '${call.name}' (it was decided already, withdrawn, or never held): it does not run.`, 'APPROVAL_NOT_PENDING', call);
}

/** The refusal of a call that is held and was not decided in the framework's approval flow. */
function awaiting(call: KeyedCall): ToolResult {
  return refused(`Call '${call.id}' of tool '${call.name}' is waiting for a person's approval: it does not run until the approval flow approves it.`, 'APPROVAL_PENDING', call);
}

/**
 * @internal The bridge one adapted tool set shares: the framework's approval questions and answers,
 * mapped onto an `ApprovalManager`. Calls are matched to held approvals by call id, tool and the
 * view's session; the framework's arguments must equal the ones held.
 */
export class FrameworkApprovalBridge {
  /** Results of calls that were not held (they ran when the framework asked), by call id, with their arguments and caller's principal. */
  private readonly ran = new Map<string, { readonly args: unknown; readonly principal: string | undefined; readonly result: Promise<ToolResult> }>();
  /** Call ids whose denial was recorded already (a conversation repeats them on every turn). */
  private readonly denied = new Set<string>();

  constructor(
    private readonly view: ToolView,
    private readonly approvals: FrameworkApprovals,
    private readonly options: FrameworkToolsOptions,
  ) {}

  /**
   * The framework asks whether `call` needs approval. `decided` is true when the framework has
   * already decided this call id (a resumed or replayed approval): then nothing runs here, and the
   * framework's approval reaches {@link execute}, which approves only a call toolwright still holds.
   */
  async needsApproval(call: KeyedCall, decided: boolean): Promise<boolean> {
    // a call the framework has not decided yet was asked about here first: held here, if at all
    if (decided || (await this.heldFor(call, false)) !== undefined) return true;
    const result = callThroughView(this.view, call, this.options);
    const settled = await result;
    if (isHeldResult(settled)) return true;
    if (this.ran.size >= MAX_RAN) this.ran.delete(this.ran.keys().next().value!);
    this.ran.set(call.id, { args: argumentValue(call.arguments), principal: this.principalOf(call.runContext), result });
    return false;
  }

  /**
   * The framework runs `call`: either it was not held (its result, from when the framework
   * asked), or the framework approved it: the held call runs through `manager.approve`. Never
   * rejects: refusals are error results (`APPROVAL_NOT_PENDING`, `APPROVAL_CHANGED`, …).
   * `decided: false` says the framework holds no decision on this call id (it was never asked,
   * e.g. an application's own approval setting took precedence): the call then goes through
   * `view.callTool`, where toolwright's approval holds it if its policy says so; one already held
   * does not run.
   */
  async execute(call: KeyedCall, decided = true): Promise<ToolResult> {
    const ran = this.ran.get(call.id);
    // only the same call of the same caller gets the result (a tool set may serve several users)
    if (ran !== undefined && ran.principal === this.principalOf(call.runContext) && isDeepStrictEqual(ran.args, argumentValue(call.arguments))) {
      this.ran.delete(call.id);
      return ran.result;
    }
    let held: HeldCall | undefined;
    try {
      held = await this.heldFor(call);
    } catch (error) {
      const message = ToolkitError.is(error) ? error.message : 'the approval store could not be read';
      return refused(`The approval of call '${call.id}' could not be checked (${message}); the call does not run.`, 'APPROVAL_STORE_FAILED', call);
    }
    if (!decided) return held === undefined ? callThroughView(this.view, call, this.options) : awaiting(call);
    const value = argumentValue(call.arguments);
    // arguments that are not an object were never asked about (a framework forces its approval for
    // them): toolwright's own validation answers them, and its approval still holds what it must
    if (held === undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) return callThroughView(this.view, call, this.options);
    if (held === undefined) return notPending(call);
    if (!isDeepStrictEqual(argumentValue(held.call.arguments), value)) {
      await this.reject(held, 'the approval named other arguments than the call held');
      return refused(`The approval of call '${call.id}' names other arguments than the ones held and shown; the call does not run and is rejected.`, 'APPROVAL_CHANGED', call);
    }
    return this.approve(held, call);
  }

  /**
   * Why an approval the framework holds for `call` cannot reach a held call (none is held for it:
   * decided already, withdrawn, never held), or `undefined` when one is held, or when the store
   * cannot tell (then {@link execute} answers with the store's error).
   */
  async approvalRefusal(call: KeyedCall): Promise<string | undefined> {
    try {
      return (await this.heldFor(call)) === undefined ? notPending(call).forLLM : undefined;
    } catch {
      return undefined;
    }
  }

  /** The framework denied `call`: the held call is rejected (a tombstone); nothing when none is held. */
  async deny(call: Pick<KeyedCall, 'id' | 'name' | 'runContext'>, reason: string | undefined): Promise<void> {
    if (this.denied.has(call.id)) return;
    const held = await this.heldFor(call);
    if (held !== undefined) await this.reject(held, reason ?? 'declined in the approval flow');
    if (this.denied.size >= MAX_RAN) this.denied.delete(this.denied.values().next().value!);
    this.denied.add(call.id);
  }

  /**
   * Records the framework's denials of the calls held in this view's session: `deniedBy(held)`
   * answers the framework's reason when it denied that call, `undefined` when it did not.
   */
  async settle(deniedBy: (held: HeldCall) => string | false | undefined, runContext?: unknown): Promise<void> {
    const sessionId = this.view.sessionId;
    for (const held of this.approvals.manager.pending(sessionId === undefined ? undefined : { sessionId })) {
      if (held.sessionId !== sessionId || this.denied.has(held.call.id) || !this.servesRequester(held, runContext)) continue;
      const reason = deniedBy(held);
      if (reason !== undefined) await this.deny({ id: held.call.id, name: held.toolName, runContext }, reason === false ? undefined : reason);
    }
  }

  private async approve(held: HeldCall, call: KeyedCall): Promise<ToolResult> {
    const { manager, decidedBy } = this.approvals;
    const base = { decidedBy, signal: call.signal, onProgress: call.onProgress };
    try {
      return await manager.approve(held.id, base);
    } catch (error) {
      if (!ToolkitError.is(error)) throw error;
      // held by another process: run it here as its requester, in this view and context
      if (error.code !== 'APPROVAL_CONTEXT_REQUIRED') return refusalOf(error, call);
    }
    try {
      return await manager.approve(held.id, { ...base, view: this.view, context: this.options.context });
    } catch (error) {
      if (!ToolkitError.is(error)) throw error;
      return refusalOf(error, call);
    }
  }

  private async reject(held: HeldCall, reason: string): Promise<void> {
    try {
      await this.approvals.manager.reject(held.id, reason, { decidedBy: this.approvals.decidedBy });
    } catch (error) {
      // decided meanwhile (here or in another process): the tombstone is there already
      if (!ToolkitError.is(error) || error.code !== 'APPROVAL_NOT_PENDING') throw error;
    }
  }

  /** The principal these tools serve for a call with `runContext`: `approvals.principal`, else the context's `Principal`. */
  private principalOf(runContext: unknown): string | undefined {
    if (this.approvals.principal !== undefined) return this.approvals.principal;
    const context = ToolExecutionContext.merge(this.options.context, runContext instanceof ToolExecutionContext ? runContext : undefined);
    return context.get(Principal)?.id;
  }

  /** True when `held` was requested by the principal these tools serve (or by no principal). */
  private servesRequester(held: HeldCall, runContext: unknown): boolean {
    return held.principal === undefined || this.principalOf(runContext) === held.principal;
  }

  /** The approval held for `call` in this view's session; unless `reload` is false, looked up in the store when not listed here yet. */
  private async heldFor(call: Pick<KeyedCall, 'id' | 'name' | 'runContext'>, reload = true): Promise<HeldCall | undefined> {
    const find = (): HeldCall | undefined => {
      const sessionId = this.view.sessionId;
      return this.approvals.manager
        .pending(sessionId === undefined ? undefined : { sessionId })
        .find((p) => p.call.id === call.id && p.toolName === call.name && p.sessionId === sessionId && this.servesRequester(p, call.runContext));
    };
    const listed = find();
    if (listed !== undefined || !reload) return listed;
    await this.approvals.manager.refresh();
    return find();
  }
}
