import type { AgentTool } from '../common/agent-tool';
import type { ToolResult } from '../common/tool-types';
import { approvalUnavailable, hasApprovalHook, missingScopes, principalIn, ruleRefusal, scopeRefusal, verdictOf, type AuthorizeVerdict } from './authorization';
import { fail } from './call-end';
import { resolverOf, type CallState } from './call-state';

/**
 * @internal The scope gate, right after the availability gate and before the arguments are read:
 * ends the call with `FORBIDDEN` when the caller's principal lacks a scope of `tools` (the tool,
 * and the registered entry a meta tool was routed from); `undefined` when it holds them all.
 */
export function scopeGate(run: CallState, tools: readonly AgentTool[]): ToolResult | undefined {
  for (const tool of tools) {
    if (tool.behaviour?.scopes === undefined) continue;
    const principal = principalIn(resolverOf(run));
    const missing = missingScopes(tool, principal);
    if (missing.length > 0) return fail(run, 'FORBIDDEN', scopeRefusal(tool, missing, principal));
  }
  return undefined;
}

/**
 * @internal The toolkit's `authorize` rule, after validation and before hooks and presets: ends
 * the call with `FORBIDDEN` on `false` (or a throwing rule), and on `'approval'` marks the call
 * for the approval manager's hook (`FORBIDDEN` when none is installed; on a worker the caller's
 * side already held it). `undefined` (go on) or a Promise of that; never rejects.
 */
export function authorizeCall(run: CallState, tool: AgentTool, args: Record<string, unknown>): ToolResult | undefined | Promise<ToolResult | undefined> {
  const authorize = run.core.authorize;
  if (authorize === undefined) return undefined;
  const resolver = resolverOf(run);
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
    (value) => (run.done ? run.final : decide(run, tool, value)),
    (error: unknown) => refusedByFault(run, tool, error),
  );
}

function decide(run: CallState, tool: AgentTool, value: unknown): ToolResult | undefined {
  const verdict = verdictOf(value);
  if (verdict === true) return undefined;
  if (verdict === false) return fail(run, 'FORBIDDEN', ruleRefusal(tool, false));
  if (run.handoff !== undefined) return undefined;
  if (!hasApprovalHook(run.core.hooks)) return fail(run, 'FORBIDDEN', approvalUnavailable(tool));
  run.approvalRequired = true;
  return undefined;
}

function refusedByFault(run: CallState, tool: AgentTool, error: unknown): ToolResult {
  run.core.report(error, 'authorize');
  return fail(run, 'FORBIDDEN', ruleRefusal(tool, true));
}
