import type { ToolCall } from '../model/tool-types';

/**
 * A call waiting for a person's decision. Plain JSON (no functions, no class instances beyond
 * what the arguments hold): it survives `serialize()` / `restore()` across a process restart.
 * It never holds preset values: the arguments are the model's, as validated.
 *
 * @example
 * for (const p of approvals.pending({ sessionId })) ui.ask(`${p.toolName}(${JSON.stringify(p.arguments)}): ${p.reason}`, p.id);
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
  /** Who asked, as the manager's `principal` option named them (e.g. a user id). */
  readonly principal?: string;
  /** Why the call needs approval, for the person deciding. */
  readonly reason: string;
  /** When the call was held (ms since the epoch). */
  readonly createdAt: number;
  /**
   * With a `store`: the digest of the call as it was held (`'sha256:…'`). Pass it to
   * `approve(id, { digest })` / `reject(id, reason, { digest })` to decide exactly what was shown:
   * a call changed in the store since is refused (`APPROVAL_CHANGED`).
   */
  readonly digest?: string;
}

/**
 * A decision remembered for a session or a principal (`approve(id, { remember })`).
 *
 * @example
 * approvals.remembered(); // [{ sessionId: 's-1', toolName: 'delete_file', decision: 'approved' }]
 */
export interface RememberedDecision {
  /** The session it applies to, until the session ends (absent for a principal's decision). */
  readonly sessionId?: string;
  /** The principal it applies to (with `sessionId`: that principal in that session only). */
  readonly principal?: string;
  /** The tool it applies to. */
  readonly toolName: string;
  /** What was decided. */
  readonly decision: 'approved' | 'rejected';
  /** The rejection's reason. */
  readonly reason?: string;
}
