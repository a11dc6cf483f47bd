import { isPlainObject } from '../utils/plain-object';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import { claimOf, type DecidedRecord, type InMemoryApprovalDecisions } from './approval-decisions';
import { freezeApproval, type PendingApprovals } from './approval-pending';
import type { RememberedDecisions } from './approval-remembered';
import type { PendingApproval, RememberedDecision, SerializedApprovals } from './approval-types';

/** How far ahead of this process's clock a restored approval's `createdAt` may be (other processes' clocks drift). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 1_000;
const isOptionalText = (v: unknown): boolean => v === undefined || isText(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isDecision = (v: unknown): v is 'approved' | 'rejected' => v === 'approved' || v === 'rejected';

/**
 * @internal What `ApprovalManager.restore()` was given (the text `serialize()` wrote, or its
 * parsed object), checked whole; only the fields a snapshot has are copied (nothing else of the
 * input is kept).
 *
 * @throws ToolkitError `INVALID_SNAPSHOT` when `state` is not JSON or not a serialised approval state.
 *
 * @example
 * const snapshot = parseSnapshot(await fs.readFile('approvals.json', 'utf8'), Date.now());
 */
export function parseSnapshot(state: string | SerializedApprovals, now: number): SerializedApprovals {
  let parsed: unknown;
  try {
    parsed = typeof state === 'string' ? JSON.parse(state) : state;
  } catch (e) {
    throw new ToolkitError('INVALID_SNAPSHOT', `ApprovalManager.restore(): the text is not JSON because ${describeThrown(e)}. Pass what serialize() returned.`, { cause: e });
  }
  return checkSnapshot(parsed, now);
}

function checkSnapshot(value: unknown, now: number): SerializedApprovals {
  const fail = (why: string): never => {
    throw new ToolkitError('INVALID_SNAPSHOT', `ApprovalManager.restore(): not a serialised approval state (${why}). Pass what serialize() returned.`);
  };
  if (!isPlainObject(value)) return fail('expected an object');
  if (value.version !== 1) return fail(`unsupported version ${JSON.stringify(value.version)?.slice(0, 40)}`);
  const list = (field: string): unknown[] => {
    const v = value[field];
    return v === undefined && field !== 'pending' ? [] : Array.isArray(v) ? v : fail(`${field} must be an array`);
  };
  const ids = new Set<string>();
  const pending = list('pending').map((p: unknown, i): PendingApproval => {
    const ok =
      isPlainObject(p) &&
      isText(p.id) &&
      !ids.has(p.id) &&
      isText(p.toolName) &&
      typeof p.reason === 'string' &&
      isTime(p.createdAt) &&
      isPlainObject(p.arguments) &&
      isPlainObject(p.call) &&
      isText(p.call.id) &&
      isText(p.call.name) &&
      (typeof p.call.arguments === 'string' || isPlainObject(p.call.arguments)) &&
      isOptionalText(p.sessionId) &&
      isOptionalText(p.principal);
    if (!ok) return fail(`pending[${i}] lacks id, call, toolName, arguments, reason or createdAt, has a duplicate id, or a field of the wrong type`);
    // a copy dated after now could pass for one held after a decision about its call
    if ((p as { createdAt: number }).createdAt > now + MAX_CLOCK_SKEW_MS) return fail(`pending[${i}] was created in the future`);
    const checked = p as unknown as PendingApproval;
    ids.add(checked.id);
    const { call } = checked;
    return {
      id: checked.id,
      call: { id: call.id, name: call.name, arguments: call.arguments },
      toolName: checked.toolName,
      arguments: checked.arguments,
      ...(checked.sessionId !== undefined ? { sessionId: checked.sessionId } : {}),
      ...(checked.principal !== undefined ? { principal: checked.principal } : {}),
      reason: checked.reason,
      createdAt: checked.createdAt,
    };
  });
  const remembered = list('remembered').map((r: unknown, i): RememberedDecision => {
    const ok = isPlainObject(r) && isText(r.toolName) && isDecision(r.decision) && (r.reason === undefined || typeof r.reason === 'string');
    // an identity: a remembered decision never covers everyone
    if (!ok || !(isText(r.sessionId) || isText(r.principal)) || !isOptionalText(r.sessionId) || !isOptionalText(r.principal)) {
      return fail(`remembered[${i}] needs toolName, decision 'approved' or 'rejected', and a sessionId or a principal`);
    }
    return {
      ...(r.sessionId !== undefined ? { sessionId: r.sessionId as string } : {}),
      ...(r.principal !== undefined ? { principal: r.principal as string } : {}),
      toolName: r.toolName as string,
      decision: r.decision as 'approved' | 'rejected',
      ...(r.reason !== undefined ? { reason: r.reason as string } : {}),
    };
  });
  const decided = list('decided').map((d: unknown, i): DecidedRecord => {
    if (!isPlainObject(d) || !isText(d.id) || !isDecision(d.decision) || !isOptionalText(d.callKey) || ![d.createdAt, d.decidedAt].every((t) => t === undefined || isTime(t))) {
      return fail(`decided[${i}] needs id and decision`);
    }
    return {
      id: d.id,
      decision: d.decision,
      ...(d.callKey !== undefined ? { callKey: d.callKey as string } : {}),
      ...(d.createdAt !== undefined ? { createdAt: d.createdAt as number } : {}),
      ...(d.decidedAt !== undefined ? { decidedAt: d.decidedAt as number } : {}),
    };
  });
  if (value.horizon !== undefined && !isTime(value.horizon)) fail('horizon must be a number');
  return { version: 1, pending, remembered, decided, ...(value.horizon !== undefined ? { horizon: value.horizon as number } : {}) };
}

/**
 * @internal Loads a checked snapshot into a manager's parts: decisions and remembered decisions,
 * then the pending approvals not pending or decided already, within the limits.
 *
 * @returns the number of pending approvals added.
 */
export function loadSnapshot(snapshot: SerializedApprovals, parts: { held: PendingApprovals; memory: InMemoryApprovalDecisions; remembered: RememberedDecisions }): number {
  const { held, memory } = parts;
  memory.load(snapshot.decided.filter((d) => !held.has(d.id)), snapshot.horizon);
  for (const decision of snapshot.remembered) parts.remembered.add(decision);
  let added = 0;
  for (const approval of snapshot.pending) {
    if (held.has(approval.id) || memory.isDecided(claimOf(approval, 'rejected'))) continue;
    if (held.overLimit(approval) !== undefined) continue;
    held.add(freezeApproval(approval));
    added++;
  }
  if (added) held.publish();
  return added;
}
