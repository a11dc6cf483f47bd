import { BehaviorSubject, map, type Observable } from 'rxjs';
import type { CallOrigin, HookContext } from '../executor/hook-types';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import { requesterKey, requesterNoun, type Requester } from './approval-requester';
import type { PendingApproval, PendingFilter } from './approval-types';

function positiveLimit(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new ToolkitError('INVALID_OPTIONS', `ApprovalManager: ${what} must be a whole number >= 1, got ${String(value)}.`);
  return value;
}

/**
 * @internal A frozen copy of `approval` (its call and arguments too): what the pending list
 * hands out cannot be changed behind the manager's back.
 *
 * @example
 * pending.add(freezeApproval(approval));
 */
export function freezeApproval(approval: PendingApproval): PendingApproval {
  return Object.freeze({ ...approval, call: Object.freeze({ ...approval.call }), arguments: Object.freeze({ ...approval.arguments }) });
}

/** @internal The frozen approval record of the call a hook sees, under `id`. */
export function approvalOf(ctx: HookContext, id: string, reason: string, principal: string | undefined, createdAt: number): PendingApproval {
  return freezeApproval({
    id,
    call: { id: ctx.call.id, name: ctx.call.name, arguments: ctx.call.arguments },
    toolName: ctx.tool.name,
    arguments: { ...ctx.arguments },
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
    ...(principal !== undefined ? { principal } : {}),
    reason,
    createdAt,
  });
}

/**
 * @internal The calls an `ApprovalManager` holds, within its limits (`maxPending` in all,
 * `maxPendingPerSession` per requester: a session, else a principal), with the origin of each call held in this process and a
 * pending list that is made only when someone reads it (holding stays O(1) however many are held).
 *
 * @example
 * const pending = new PendingApprovals({ maxPending: 10 });
 * if (pending.overLimit({ sessionId, principal }) === undefined) pending.add(approval, origin);
 * pending.publish();
 */
export class PendingApprovals {
  readonly maxPending: number;
  readonly maxPendingPerSession: number;
  /** The pending list: the current one at once, then a new one on every {@link publish}. */
  readonly list$: Observable<readonly PendingApproval[]>;
  private readonly held = new Map<string, PendingApproval>();
  /** How many calls each requester (by {@link requesterKey}) has held. */
  private readonly perRequester = new Map<string, number>();
  /** How to run each call held in this process as it was requested (never serialised). */
  private readonly origins = new Map<string, CallOrigin>();
  private snapshot: readonly PendingApproval[] | undefined = undefined;
  private readonly changes = new BehaviorSubject<void>(undefined);

  /** @throws ToolkitError `INVALID_OPTIONS` for a limit that is not a whole number >= 1. */
  constructor(limits: { readonly maxPending?: number | undefined; readonly maxPendingPerSession?: number | undefined }) {
    this.maxPending = positiveLimit(limits.maxPending, 1_000, 'maxPending');
    this.maxPendingPerSession = positiveLimit(limits.maxPendingPerSession, 100, 'maxPendingPerSession');
    this.list$ = this.changes.pipe(map(() => this.list()));
  }

  /** A pending approval by id. */
  get(id: string): PendingApproval | undefined {
    return this.held.get(id);
  }

  /** True while `id` is pending. */
  has(id: string): boolean {
    return this.held.has(id);
  }

  /** How the call of approval `id` was requested, when it was held in this process. */
  originOf(id: string): CallOrigin | undefined {
    return this.origins.get(id);
  }

  /** The pending approvals, oldest first (one frozen array until the next change). */
  list(): readonly PendingApproval[] {
    return (this.snapshot ??= Object.freeze([...this.held.values()]));
  }

  /** The pending approvals of one session or principal (all without a filter), as a new array. */
  filtered(filter?: PendingFilter): PendingApproval[] {
    const all = this.list();
    if (filter === undefined || (filter.sessionId === undefined && filter.principal === undefined)) return [...all];
    return all.filter((p) => (filter.sessionId === undefined || p.sessionId === filter.sessionId) && (filter.principal === undefined || p.principal === filter.principal));
  }

  /** Why no further call of `requester` can be held, or `undefined` when one can. */
  overLimit(requester: Requester): string | undefined {
    if (this.held.size >= this.maxPending) return `${this.maxPending} calls are already waiting for approval (the limit)`;
    if ((this.perRequester.get(requesterKey(requester)) ?? 0) >= this.maxPendingPerSession) {
      return `${this.maxPendingPerSession} calls of this ${requesterNoun(requester)} are already waiting for approval (the limit)`;
    }
    return undefined;
  }

  /** Drops (and returns) the approvals of session `sessionId` held in its `lifetime` (a {@link CallOrigin.lifetime}), and those of that session id restored from a snapshot. */
  withdrawSession(sessionId: string, lifetime: object): PendingApproval[] {
    const withdrawn = [...this.held.values()].filter((p) => p.sessionId === sessionId && (this.origins.get(p.id)?.lifetime ?? lifetime) === lifetime);
    for (const approval of withdrawn) this.release(approval);
    return withdrawn;
  }

  /** Holds `approval` (and remembers its origin); {@link publish} tells the subscribers. */
  add(approval: PendingApproval, origin?: CallOrigin): void {
    this.held.set(approval.id, approval);
    if (origin !== undefined) this.origins.set(approval.id, origin);
    const key = requesterKey(approval);
    this.perRequester.set(key, (this.perRequester.get(key) ?? 0) + 1);
  }

  /** Drops `approval` and publishes the change; returns its origin, should it have to be held again. */
  release(approval: PendingApproval): CallOrigin | undefined {
    const origin = this.origins.get(approval.id);
    this.held.delete(approval.id);
    this.origins.delete(approval.id);
    const key = requesterKey(approval);
    const count = (this.perRequester.get(key) ?? 1) - 1;
    if (count > 0) this.perRequester.set(key, count);
    else this.perRequester.delete(key);
    this.publish();
    return origin;
  }

  /** Makes the next read build a new list and tells `list$`'s subscribers, if there are any. */
  publish(): void {
    this.snapshot = undefined;
    if (this.changes.observed) this.changes.next();
  }
}

/** @internal The default `onCallbackError` of an `ApprovalManager`: one process warning, the first time. */
export function warnOnce(): (error: unknown, source: string) => void {
  let warned = false;
  return (error, source) => {
    if (warned) return;
    warned = true;
    const what = source === 'store' ? `ApprovalManager's store failed (${describeThrown(error)})` : `A subscriber of ApprovalManager.${source} threw (${describeThrown(error)})`;
    process.emitWarning(`${what}; pass onCallbackError to handle it.`, { code: 'TOOLWRIGHT_CALLBACK_FAILED' });
  };
}

/** @internal `onCallbackError` is a user callback too: what it throws goes to the one-time warning, never into RxJS. */
export function reportSafely(onCallbackError: (error: unknown, source: string) => void): (error: unknown, source: string) => void {
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
