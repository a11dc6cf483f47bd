import type { ToolRisk } from '../model/tool-types';
import type { HookContext } from '../executor/hook-types';
import { ToolkitError } from '../errors';
import type { ApprovalPolicy } from './approval-types';

const RISK_RANK: Readonly<Record<ToolRisk, number>> = { low: 0, medium: 1, high: 2 };

/**
 * @internal Why a call needs a person's approval under an {@link ApprovalPolicy}, or `undefined`
 * when it may run: a listed tool, a risk at or above `minRisk`, or the `when` rule.
 *
 * @example
 * const requirement = approvalRequirement({ tools: ['pay'], minRisk: 'high' });
 * await requirement(ctx); // "tool 'pay' always needs approval"
 */
export type ApprovalRequirementCheck = (ctx: HookContext) => Promise<string | undefined>;

/**
 * @internal Checks the policy's options once and returns its {@link ApprovalRequirementCheck}.
 *
 * @throws ToolkitError `INVALID_OPTIONS` when `minRisk` is not `'low'`, `'medium'` or `'high'`.
 *
 * @example
 * const requirement = approvalRequirement({ minRisk: 'medium' });
 */
export function approvalRequirement(policy: ApprovalPolicy): ApprovalRequirementCheck {
  const tools: ReadonlySet<string> = new Set(policy.tools ?? []);
  const { minRisk, when } = policy;
  if (minRisk !== undefined && !(minRisk in RISK_RANK)) {
    throw new ToolkitError('INVALID_OPTIONS', `ApprovalManager: minRisk must be 'low', 'medium' or 'high', got '${String(minRisk)}'.`);
  }
  return async (ctx) => {
    const name = ctx.tool.name;
    if (tools.has(name)) return `tool '${name}' always needs approval`;
    const risk = ctx.tool.behaviour?.risk;
    if (minRisk !== undefined && risk !== undefined && RISK_RANK[risk] >= RISK_RANK[minRisk]) {
      return `tool '${name}' has risk level '${risk}'`;
    }
    if (!when) return undefined;
    const verdict = await when(ctx);
    if (typeof verdict === 'string') return verdict.trim() !== '' ? verdict : undefined;
    return verdict === true ? `the approval policy requires it for tool '${name}'` : undefined;
  };
}
