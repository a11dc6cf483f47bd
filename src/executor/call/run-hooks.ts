import { ClientRequests } from '../../model/client-requests';
import type { ToolResult } from '../../model/tool-types';
import { failed, Stop } from './call-end';
import { shapeResult } from './call-shape';
import { End, describe, quotedName, toolName, type CallState } from './call-state';
import { argumentProblems, invalidArguments } from './call-validate';
import type { Deadline, DeadlineScheduler, DeadlineTarget } from '../deadlines';
import { AUTHORIZED_APPROVAL, CALL_ORIGIN, type BeforeHookDecision, type HookContext, type ToolHook } from '../hook-types';
import type { ToolEntry } from '../tool-entry';

function hookContext(run: CallState, entry: ToolEntry): HookContext {
  const context: { -readonly [K in keyof HookContext]: HookContext[K] } = {
    call: run.call,
    tool: entry.tool,
    arguments: run.args!,
    context: run.resolver(),
    get client() {
      return run.hookRequests();
    },
  };
  if (run.options.sessionId !== undefined) context.sessionId = run.options.sessionId;
  if (run.repairs !== undefined) context.repairs = run.repairs;
  if (run.origin !== undefined) context[CALL_ORIGIN] = run.origin;
  if (run.approvalRequired) context[AUTHORIZED_APPROVAL] = true;
  return context;
}

/** @internal A `before` hook answered the call (`respond`) with `result`. */
export class Answered {
  constructor(readonly result: ToolResult) {}
}

/**
 * @internal What `hook`'s `before` decided about the call: go on (`undefined`), go on with the
 * arguments it rewrote (validated again), answer it ({@link Answered}), or end it: `DENIED`,
 * `INVALID_ARGUMENTS` for a rewrite, `HOOK_FAILED` when it threw.
 */
export async function beforeHook(run: CallState, entry: ToolEntry, hook: ToolHook): Promise<Record<string, unknown> | Answered | Stop | undefined> {
  let decision: BeforeHookDecision;
  try {
    decision = await hook.before!(hookContext(run, entry));
  } catch (e) {
    return failed('HOOK_FAILED', `Tool '${entry.name}' was stopped by hook '${hook.name}': ${describe(run, e)}`, e);
  }
  if (!decision) return undefined;
  if (decision.action === 'deny') return failed('DENIED', `Tool '${entry.name}' was denied: ${decision.reason}`);
  if (decision.action === 'respond') return new Answered(decision.result);
  return decision.action === 'rewrite' ? rewritten(run, entry, decision.arguments) : undefined;
}

/**
 * @internal The arguments a `before` hook rewrote the call's to, validated again (Standard Schema
 * parts against their JSON Schema conversion: the library's own validation ran on what the model
 * sent); `INVALID_ARGUMENTS` when they are not valid.
 */
function rewritten(run: CallState, entry: ToolEntry, args: Record<string, unknown>): Record<string, unknown> | Stop {
  const own = { ...args };
  const stripped = entry.stripNulls !== undefined ? entry.stripNulls(own) : own;
  const problems = argumentProblems(run, entry, stripped, true);
  return problems === undefined ? stripped : invalidArguments(entry, problems);
}

/**
 * @internal The `after` hooks, each in turn (`phase` tells which runs): what they made of
 * `result` (a replacement is the call's answer, redacted and cut), `HOOK_FAILED` when one threw.
 * Once the call has ended (its timeout, its caller's abort), its answer as it is.
 */
export async function afterHooks(run: CallState, entry: ToolEntry, phase: HookPhase, result: ToolResult): Promise<ToolResult | Stop> {
  for (const hook of run.parts.hooks) {
    if (!hook.after) continue;
    phase.enter(hook.name);
    try {
      const replacement = await hook.after(hookContext(run, entry), result);
      if (run.done) return run.final!;
      if (replacement) result = shapeResult(run, entry, replacement);
    } catch (e) {
      return failed('HOOK_FAILED', `Hook '${hook.name}' failed after tool '${entry.name}': ${describe(run, e)}`, e);
    }
  }
  return result;
}

/** @internal `TIMEOUT` of a hook phase: the call's timeout passed while `hook` (if known) was running. */
export function hookTimedOut(run: CallState, hook: string | undefined): Stop {
  return new Stop(
    'TIMEOUT',
    `Tool ${quotedName(run)} timed out after ${run.settings?.timeoutMs ?? 0} ms` +
      `${hook !== undefined ? ` while hook '${hook}' was running` : ''}. Its work was cancelled; try again, or with a smaller request.`,
    End.TimedOut,
  );
}

/**
 * @internal The hooks' side of one call, made when it runs hooks: the deadline of the running hook
 * phase (hooks count against the call's timeout), the hook running now (for the timeout message),
 * and what the hooks ask the client through, cancelled when the call times out or is aborted.
 */
export class HookPhase {
  /** The hook running now, if any. */
  get hook(): string | undefined {
    return this.running;
  }

  private running: string | undefined = undefined;
  private deadline: Deadline | undefined = undefined;
  private client: ClientRequests | undefined = undefined;
  private cancel: AbortController | undefined = undefined;

  /**
   * Runs `hooks` (the `before` or the `after` ones) as one phase: `target.onDeadline()` when
   * `timeoutMs` (0: none) passes first.
   */
  async within<T>(deadlines: DeadlineScheduler, timeoutMs: number, target: DeadlineTarget, hooks: () => Promise<T>): Promise<T> {
    if (timeoutMs > 0) this.deadline = deadlines.schedule(timeoutMs, target);
    try {
      return await hooks();
    } finally {
      this.running = undefined;
      const deadline = this.deadline;
      this.deadline = undefined;
      deadline?.cancel();
    }
  }

  /** `hook` runs now. */
  enter(hook: string): void {
    this.running = hook;
  }

  /** The phase's deadline passed (it fired: nothing to cancel). */
  expired(): void {
    this.deadline = undefined;
  }

  /** What the hooks of `run` ask the client through (made on first use). */
  requests(run: CallState): ClientRequests {
    if (this.client === undefined) {
      const abort = (this.cancel = new AbortController());
      this.client = new ClientRequests(run.clientHandler(), {
        toolName: toolName(run),
        signal: abort.signal,
        redact: (request) => run.outgoing(request),
        get phase() {
          return run.attempts > 0 ? 'after' : 'before';
        },
      });
    }
    return this.client;
  }

  /** Cancels the hooks' requests to the client. */
  abort(reason: unknown): void {
    this.cancel?.abort(reason);
  }
}
