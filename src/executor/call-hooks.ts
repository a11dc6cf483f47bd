import type { ToolResult } from '../common/tool-types';
import { runAttempts } from './call-attempts';
import { conclude, fail, gateRefusal } from './call-end';
import { emitStarted } from './call-events';
import { errorAnswer, shapeResult } from './call-shape';
import { End, describe, hookClientOf, quotedName, resolverOf, type CallState } from './call-state';
import { validateArguments } from './call-validate';
import { AUTHORIZED_APPROVAL, CALL_ORIGIN, type BeforeHookDecision, type HookContext, type ToolHook } from './hooks';
import type { ToolEntry } from './tool-entry';

function hookContext(run: CallState, entry: ToolEntry): HookContext {
  const context: { -readonly [K in keyof HookContext]: HookContext[K] } = {
    call: run.call,
    tool: entry.tool,
    arguments: run.args!,
    context: resolverOf(run),
    get client() {
      return hookClientOf(run);
    },
  };
  if (run.options.sessionId !== undefined) context.sessionId = run.options.sessionId;
  if (run.repairs !== undefined) context.repairs = run.repairs;
  if (run.origin !== undefined) context[CALL_ORIGIN] = run.origin;
  if (run.approvalRequired) context[AUTHORIZED_APPROVAL] = true;
  return context;
}

/** Starts a hook phase under the call's timeout (the run's `onDeadline` answers the call when it passes). */
function armPhase(run: CallState): void {
  const timeoutMs = run.settings!.timeoutMs;
  if (timeoutMs > 0) run.phaseDeadline = run.core.deadlines.schedule(timeoutMs, run);
}

function endPhase(run: CallState): void {
  run.phaseHook = undefined;
  const deadline = run.phaseDeadline;
  run.phaseDeadline = undefined;
  deadline?.cancel();
}

/**
 * @internal The call with the toolkit's hooks around it: the `before` hooks (which may deny it,
 * answer it, or rewrite its arguments, validated again), the attempts, then the `after` hooks
 * (which may replace the result). Each hook phase counts against the call's timeout.
 */
export async function runWithHooks(run: CallState, entry: ToolEntry): Promise<ToolResult> {
  const hooks = run.core.hooks;
  if (run.settings!.timeoutMs > 0) run.hooksStartedAt = Date.now();
  armPhase(run);
  try {
    const stopped = await beforeHooks(run, entry, hooks);
    if (stopped !== undefined) return stopped;
  } finally {
    endPhase(run);
  }
  // the gate again: while the hooks decided, the view may have closed or switched the tool's group off
  const closed = run.view.closedReason();
  const refused = closed !== undefined ? fail(run, 'SESSION_CLOSED', closed) : gateRefusal(run, run.routed!.gate);
  if (refused !== undefined) return refused;
  emitStarted(run, run.args!);
  // a caller that aborted as the call started (an observer of call_started) gets no body run
  if (run.done) return run.final!;
  let result = await runAttempts(run, entry);
  if (run.done) return run.final!;
  armPhase(run);
  try {
    for (const hook of hooks) {
      if (!hook.after) continue;
      run.phaseHook = hook.name;
      try {
        const replacement = await hook.after(hookContext(run, entry), result);
        if (run.done) return run.final!;
        if (replacement) result = shapeResult(run, entry, replacement);
      } catch (e) {
        return fail(run, 'HOOK_FAILED', `Hook '${hook.name}' failed after tool '${entry.name}': ${describe(run, e)}`, e);
      }
    }
  } finally {
    endPhase(run);
  }
  return conclude(run, result);
}

/** Runs the `before` hooks; returns the call's answer when one of them ended it. */
async function beforeHooks(run: CallState, entry: ToolEntry, hooks: readonly ToolHook[]): Promise<ToolResult | undefined> {
  for (const hook of hooks) {
    if (!hook.before) continue;
    run.phaseHook = hook.name;
    let decision: BeforeHookDecision;
    try {
      decision = await hook.before(hookContext(run, entry));
    } catch (e) {
      return fail(run, 'HOOK_FAILED', `Tool '${entry.name}' was stopped by hook '${hook.name}': ${describe(run, e)}`, e);
    }
    if (run.done) return run.final!;
    if (!decision) continue;
    if (decision.action === 'deny') return fail(run, 'DENIED', `Tool '${entry.name}' was denied: ${decision.reason}`);
    if (decision.action === 'respond') return conclude(run, shapeResult(run, entry, decision.result));
    if (decision.action === 'rewrite') {
      const own = { ...decision.arguments };
      const rewritten = entry.stripNulls !== undefined ? entry.stripNulls(own) : own;
      if (!validateArguments(run, entry, rewritten)) return run.final!;
      run.args = rewritten;
    }
  }
  return undefined;
}

/**
 * @internal The deadline of a hook phase passed: the call ends with `TIMEOUT` at once, whatever
 * the hook does later. Returns that answer; `undefined` when the call had ended already.
 */
export function hookPhaseTimedOut(run: CallState): ToolResult | undefined {
  run.phaseDeadline = undefined;
  if (run.done) return undefined;
  run.endKind = End.TimedOut;
  const hook = run.phaseHook;
  return conclude(
    run,
    errorAnswer(
      run,
      'TIMEOUT',
      `Tool ${quotedName(run)} timed out after ${run.settings?.timeoutMs ?? 0} ms` +
        `${hook !== undefined ? ` while hook '${hook}' was running` : ''}. Its work was cancelled; try again, or with a smaller request.`,
    ),
  );
}
