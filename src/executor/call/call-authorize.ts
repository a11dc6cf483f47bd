import type { AgentTool } from '../../model/agent-tool';
import { approvalUnavailable, hasApprovalHook, missingScopes, principalIn, ruleRefusal, scopeRefusal, verdictOf, type AuthorizeVerdict } from '../authorization';
import { describeAbort } from './abort-watch';
import { aborted, failed, gateRefusal, unknownTool, type Stop } from './call-end';
import type { CallState } from './call-state';
import type { RoutedEntry } from '../executor-parts';

/**
 * @internal What the `authorize` rule decided: go on (`undefined`), refuse (a {@link Stop}), or
 * go on held for approval (`'approval'`: the approval manager's hook holds the call).
 */
export type Authorization = Stop | 'approval' | undefined;

/**
 * @internal The gate, before anything of the tool runs: the caller's signal, the name, the one
 * availability gate (of the view, or of a skill run's scope), the scopes; `undefined`: open.
 */
export function gate(run: CallState): Stop | undefined {
  const { routed, options } = run;
  if (options.signal !== undefined && options.signal.aborted) return aborted(run, describeAbort(options.signal));
  if (routed.entry === undefined) return unknownTool(run, routed.enabledNames);
  const entry = routed.entry;
  return gateRefusal(run, routed.checkedEntry, false) ?? scopeCheck(run, routed.checkedEntry === entry ? [entry.tool] : [routed.checkedEntry.tool, entry.tool]);
}

/** @internal The gate again once the `before` hooks decided: meanwhile the view may have closed or switched the tool's group off. */
export function gateAgain(run: CallState): Stop | undefined {
  // hooks run only for a call whose name the gate found an entry for
  return gateRefusal(run, (run.routed as RoutedEntry).checkedEntry, true);
}

/**
 * @internal The scope check, right after the availability gate and before the arguments are read:
 * `FORBIDDEN` when the caller's principal lacks a scope of `tools` (the tool,
 * and the registered entry a meta tool was routed from); `undefined` when it holds them all.
 */
export function scopeCheck(run: CallState, tools: readonly AgentTool[]): Stop | undefined {
  for (const tool of tools) {
    if (tool.behaviour?.scopes === undefined) continue;
    const principal = principalIn(run.resolver());
    const missing = missingScopes(tool, principal);
    if (missing.length > 0) return failed('FORBIDDEN', scopeRefusal(tool, missing, principal));
  }
  return undefined;
}

/**
 * @internal The toolkit's `authorize` rule, after validation and before hooks and presets:
 * `FORBIDDEN` on `false` (or a throwing rule); on `'approval'`, the call is held for the approval
 * manager's hook (`FORBIDDEN` when none is installed; on a worker the caller's side already held
 * it, and it goes on). A Promise when the rule answers with one; never rejects.
 */
export function authorizeCall(run: CallState, tool: AgentTool, args: Record<string, unknown>): Authorization | Promise<Authorization> {
  const authorize = run.parts.authorize;
  if (authorize === undefined) return undefined;
  const resolver = run.resolver();
  const principal = principalIn(resolver);
  const request = { tool, context: resolver.merged(), arguments: Object.freeze({ ...args }), ...(principal !== undefined ? { principal } : {}) };
  let verdict: AuthorizeVerdict | Promise<AuthorizeVerdict>;
  try {
    verdict = authorize(request);
  } catch (error) {
    return refusedByFault(run, tool, error);
  }
  if (!(verdict instanceof Promise)) return decide(run, tool, verdict);
  return verdict.then(
    (value) => decide(run, tool, value),
    (error: unknown) => refusedByFault(run, tool, error),
  );
}

function decide(run: CallState, tool: AgentTool, value: unknown): Authorization {
  const verdict = verdictOf(value);
  if (verdict === true) return undefined;
  if (verdict === false) return failed('FORBIDDEN', ruleRefusal(tool, false));
  if (run.handoff !== undefined) return undefined;
  return hasApprovalHook(run.parts.hooks) ? 'approval' : failed('FORBIDDEN', approvalUnavailable(tool));
}

function refusedByFault(run: CallState, tool: AgentTool, error: unknown): Stop {
  run.parts.report(error, 'authorize');
  return failed('FORBIDDEN', ruleRefusal(tool, true));
}
