import type { ToolResult } from '../model/tool-types';
import { ToolkitError } from '../errors';
import type { PendingApproval, RememberedDecision } from './approval-records';

/**
 * A held call as an {@link ApprovalStore} keeps it: the approval, the requester's travelling
 * context values (by declared name, see `ApprovalManagerOptions.contexts`) and the digest of both,
 * computed when the call was held. Plain JSON; never a preset value.
 *
 * @example
 * const record = await store.get('appr_1'); // { approval: { id: 'appr_1', toolName: 'pay', … }, context: { user: { id: 'ann' } }, digest: 'sha256:…' }
 */
export interface StoredApproval {
  /** The pending approval, as the manager listed it. */
  readonly approval: PendingApproval;
  /** The requester's travelling context values, by declared name (absent when none travelled). */
  readonly context?: Readonly<Record<string, unknown>>;
  /** `'sha256:'` (or with a `signingKey`, `'hmac-sha256:'`) and the digest of `approval` and `context` (canonical JSON): what a person is shown is bound to what runs. */
  readonly digest: string;
}

/**
 * One decision as the audit trail keeps it: who decided what, when, about which call.
 *
 * @example
 * for (const entry of await store.audit({ limit: 20 })) console.log(entry.decidedBy, entry.decision, entry.toolName, entry.digest);
 */
export interface ApprovalAuditRecord {
  /** The approval decided. */
  readonly id: string;
  /** What was decided. */
  readonly decision: 'approved' | 'rejected';
  /** Who decided (`approve(id, { decidedBy })`); absent when the application did not say. */
  readonly decidedBy?: string;
  /** When (ms since the epoch). */
  readonly decidedAt: number;
  /** The tool of the call. */
  readonly toolName: string;
  /** The call id the result answers. */
  readonly callId: string;
  /** The digest of the call as it was shown and decided (see {@link StoredApproval.digest}). */
  readonly digest: string;
  /** The requester's session, if any. */
  readonly sessionId?: string;
  /** The requester's principal, if any. */
  readonly principal?: string;
  /** The rejection's reason. */
  readonly reason?: string;
  /** `'elicitation'` when the requester's own client was asked at once (the call was never held). */
  readonly via?: 'elicitation';
}

/**
 * A change a store announces to its watchers: which approval, and what happened to it. A hint
 * only: a manager reads the record (and checks its digest) before it lists or publishes anything.
 *
 * @example
 * store.watch((change) => console.log(change?.kind, change?.id)); // 'held' 'appr_1', then 'decided' 'appr_1'…
 */
export interface ApprovalStoreChange {
  /** The approval concerned. */
  readonly id: string;
  /** `held`: a call was held; `decided`: approved, rejected or withdrawn; `finished`: an approved call's run ended and its result is stored. */
  readonly kind: 'held' | 'decided' | 'finished';
}

/**
 * How a call was decided, as a store keeps it: its audit record and, once an approved call's
 * run has ended, the result that answered it.
 *
 * @example
 * const outcome = await store.outcome?.('appr_1'); // { audit: { decision: 'approved', … }, result: { forLLM: 'paid', … } }
 */
export interface ApprovalOutcome {
  /** The decision's audit record. */
  readonly audit: ApprovalAuditRecord;
  /** The result of the approved call's run (absent until it ended, and for a rejection). */
  readonly result?: ToolResult;
}

/**
 * How long a store keeps tombstones, audit records and results of decided calls (default 30
 * days): older ones are purged in the background after a decision (at most once a minute), or
 * by `purge()`. A pending call is never purged.
 *
 * @example
 * redisApprovalStore({ connection, retention: { decidedMs: 90 * 24 * 3_600_000 } });
 */
export interface ApprovalRetention {
  /** How long a decided call is kept after its decision, in ms (default 30 days; at least one second). */
  readonly decidedMs?: number | undefined;
}

/** @internal The default of {@link ApprovalRetention.decidedMs}: 30 days. */
export const DEFAULT_DECIDED_RETENTION_MS = 30 * 24 * 3_600_000;

/** @internal How often a store purges by itself, at most. */
export const PURGE_INTERVAL_MS = 60_000;

/**
 * What {@link ApprovalStore.decide} found: `'decided'` (this decision won: the call left the
 * pending list, its tombstone and audit record are written), `'not-pending'` (decided before,
 * withdrawn, or unknown: nothing was written) or `'changed'` (pending, but its digest is not the
 * one decided: nothing was written).
 *
 * @example
 * if ((await store.decide(entry)) !== 'decided') return;
 */
export type ApprovalStoreVerdict = 'decided' | 'not-pending' | 'changed';

/**
 * Where an {@link ApprovalManager} keeps its state when processes share it (`new
 * ApprovalManager({ store })`): the held calls, their tombstones once decided, the remembered
 * decisions and the audit trail. Every process with the same store lists the same calls and may
 * decide any of them; `decide` is atomic, so a call runs exactly once whichever process decides.
 * Shipped: `redisApprovalStore` (`toolwright/redis`) and `postgresApprovalStore`
 * (`toolwright/postgres`). Methods reject when the store is unreachable; the manager then answers
 * `APPROVAL_STORE_FAILED` and nothing runs.
 *
 * @example
 * const store = redisApprovalStore({ connection: { host: '127.0.0.1', port: 6379 } });
 * const approvals = new ApprovalManager({ tools: ['send_payment'], store, contexts: { user: UserContext } });
 */
export interface ApprovalStore {
  /** Adds a held call; `false` (nothing written) when its id is pending or was decided already. */
  hold(record: StoredApproval): Promise<boolean>;
  /** The pending calls, oldest first. */
  list(): Promise<readonly StoredApproval[]>;
  /** One pending call by approval id. */
  get(id: string): Promise<StoredApproval | undefined>;
  /** How approval `id` was decided, when its tombstone is kept. */
  decisionOf(id: string): Promise<'approved' | 'rejected' | undefined>;
  /** Decides a pending call whose digest is `entry.digest`, atomically (see {@link ApprovalStoreVerdict}). */
  decide(entry: ApprovalAuditRecord): Promise<ApprovalStoreVerdict>;
  /** Remembers a decision under its key (a session's or a principal's, for one tool), replacing the one there. */
  remember(key: string, decision: RememberedDecision): Promise<void>;
  /** The decisions remembered under `keys`, in their order. */
  recall(keys: readonly string[]): Promise<readonly (RememberedDecision | undefined)[]>;
  /** Forgets every decision remembered for session `sessionId`. */
  forgetSession(sessionId: string): Promise<void>;
  /** The audit trail, newest first (at most `limit`, default 100). */
  audit(options?: { readonly limit?: number | undefined }): Promise<readonly ApprovalAuditRecord[]>;
  /**
   * Calls `listener` whenever the pending calls may have changed, in any process, with the change
   * when the store knows it (without one, e.g. after a reconnect, the manager reloads its whole
   * list); returns what stops it.
   */
  watch(listener: (change?: ApprovalStoreChange) => void): () => void;
  /**
   * Writes a call decided at once without being held (its requester's client was asked): its
   * tombstone and audit record; `false` when the id is known. Optional: without it, the manager
   * holds the call and decides it.
   */
  settle?(record: StoredApproval, entry: ApprovalAuditRecord): Promise<boolean>;
  /** Keeps the result of approved call `id` once its run ended, and announces it (`finished`). Optional. */
  finish?(id: string, result: ToolResult): Promise<void>;
  /** How decided call `id` was decided, and its result once stored. Optional: without it, other replicas' `decisions$` miss the calls decided elsewhere. */
  outcome?(id: string): Promise<ApprovalOutcome | undefined>;
}

/** @internal The text a store announces for a change: `kind:id`. */
export function changeText(kind: ApprovalStoreChange['kind'], id: string): string {
  return `${kind}:${id}`;
}

/** @internal A change announced by a store, or `undefined` (reload everything) for anything else. */
export function parseChange(text: unknown): ApprovalStoreChange | undefined {
  if (typeof text !== 'string' || text.length > 1_000) return undefined;
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon);
  const id = text.slice(colon + 1);
  return colon > 0 && id !== '' && (kind === 'held' || kind === 'decided' || kind === 'finished') ? { id, kind } : undefined;
}

/** @internal The retention of a store's options, checked. */
export function decidedRetentionMs(retention: ApprovalRetention | undefined, caller: string): number {
  const ms = retention?.decidedMs ?? DEFAULT_DECIDED_RETENTION_MS;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 1_000) {
    throw new ToolkitError('INVALID_OPTIONS', `${caller}: retention.decidedMs must be a number of milliseconds of at least 1000 (default 30 days).`);
  }
  return ms;
}

/** @internal A stored result read back, or `undefined` when the text is not one. */
export function parseResult(text: unknown): ToolResult | undefined {
  const value = parsed(text);
  return value !== undefined && typeof value.forLLM === 'string' && typeof value.isError === 'boolean' ? (value as unknown as ToolResult) : undefined;
}

/** @internal The text a store keeps for a result, or `undefined` when it cannot be kept (not JSON, too long). */
export function resultText(result: ToolResult): string | undefined {
  try {
    const text = JSON.stringify(result);
    return text.length <= MAX_STORED_CHARS ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Sorted-key JSON: the same text whatever order a store (a JSON column, say) gave the keys back in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * @internal The digest of a held call and its travelling context (see {@link StoredApproval.digest}):
 * SHA-256, or with `key` an HMAC-SHA256 that no one without the key can compute for a forged record.
 */
export function approvalDigest(approval: PendingApproval, context: Readonly<Record<string, unknown>> | undefined, key?: string | Uint8Array): string {
  const { digest: _shown, ...fields } = approval;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto = require('node:crypto') as typeof import('node:crypto');
  const text = canonical([fields, context ?? null]);
  if (key === undefined) return `sha256:${crypto.createHash('sha256').update(text).digest('base64url')}`;
  return `hmac-sha256:${crypto.createHmac('sha256', key).update(text).digest('base64url')}`;
}

/** @internal The largest stored record (approval and travelling context, as JSON) a store writes or reads. */
export const MAX_STORED_CHARS = 1_000_000;

function parsed(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text.length > MAX_STORED_CHARS) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** @internal The text a store keeps for a held call (its digest is kept beside it). */
export function storedText(record: StoredApproval): string {
  return JSON.stringify({ approval: record.approval, ...(record.context !== undefined ? { context: record.context } : {}) });
}

/**
 * @internal A held call read back from a store, or `undefined` when the text is not one (too long,
 * not JSON). Only its shape is checked here; the manager checks its fields and digest.
 */
export function parseStored(text: unknown, digest: unknown): StoredApproval | undefined {
  const value = parsed(text);
  if (value === undefined || typeof digest !== 'string' || value.approval === null || typeof value.approval !== 'object') return undefined;
  return { approval: value.approval as PendingApproval, ...(value.context !== undefined ? { context: value.context as Record<string, unknown> } : {}), digest };
}

/** @internal A remembered decision read back from a store, or `undefined` when the text is not one. */
export function parseRemembered(text: unknown): RememberedDecision | undefined {
  const value = parsed(text);
  if (value === undefined || typeof value.toolName !== 'string' || (value.decision !== 'approved' && value.decision !== 'rejected')) return undefined;
  const isText = (v: unknown): v is string => typeof v === 'string';
  if (!isText(value.sessionId) && !isText(value.principal)) return undefined;
  return {
    ...(isText(value.sessionId) ? { sessionId: value.sessionId } : {}),
    ...(isText(value.principal) ? { principal: value.principal } : {}),
    toolName: value.toolName,
    decision: value.decision,
    ...(isText(value.reason) ? { reason: value.reason } : {}),
  };
}

/** @internal An audit record read back from a store, or `undefined` when the text is not one. */
export function parseAudit(text: unknown): ApprovalAuditRecord | undefined {
  const value = parsed(text);
  const ok = value !== undefined && typeof value.id === 'string' && (value.decision === 'approved' || value.decision === 'rejected') && typeof value.decidedAt === 'number';
  return ok ? (value as unknown as ApprovalAuditRecord) : undefined;
}
