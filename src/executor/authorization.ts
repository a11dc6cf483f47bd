import type { AgentTool, ContextResolver } from '../model/agent-tool';
import { ToolExecutionContext } from '../model/execution-context';
import { Principal } from '../model/principal';
import { quoteInput } from '../utils/quote-input';
import type { ToolHook } from './hook-types';

/**
 * What the toolkit's `authorize` rule is asked: the tool, the caller's {@link Principal} (absent
 * when the call or list carries none), the caller's whole context, and at call time the validated
 * arguments (never preset values). `arguments` is absent when a list is being made.
 */
export interface AuthorizeRequest {
  /** The tool being listed or called. */
  readonly tool: AgentTool;
  /** Who is calling, if the context carries a `Principal`. */
  readonly principal?: Principal | undefined;
  /** The caller's context (call over agent over toolkit). */
  readonly context: ToolExecutionContext;
  /** The validated arguments at call time; absent while listing. */
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The verdict of an `authorize` rule: `true` allows, `false` hides the tool and refuses its call
 * with `FORBIDDEN`, `'approval'` lists the tool and holds each call for the `ApprovalManager`.
 */
export type AuthorizeVerdict = boolean | 'approval';

/**
 * The toolkit's `authorize` option: one rule for every path (direct calls, batches, skills, meta
 * tools, MCP, adapters, queues). A synchronous verdict applies to every list; a Promise applies at
 * call time and to the asynchronous lists (MCP `tools/list`, `getVisibleTools`), while the
 * synchronous lists show the tool. A rule that throws or rejects denies.
 *
 * @example
 * const authorize: Authorize = ({ tool, principal, arguments: args }) =>
 *   tool.name !== 'refund' ? true : Number(args?.amount ?? 0) > 1000 ? 'approval' : principal?.claims.role === 'support';
 */
export type Authorize = (request: AuthorizeRequest) => AuthorizeVerdict | Promise<AuthorizeVerdict>;

/** @internal Marks the hook of an approval manager: an `'approval'` verdict needs one installed. */
export const APPROVAL_HOOK: unique symbol = Symbol('toolwright.approvalHook');

/** @internal True when one of `hooks` is an approval manager's. */
export function hasApprovalHook(hooks: readonly ToolHook[]): boolean {
  return hooks.some((hook) => (hook as { [APPROVAL_HOOK]?: unknown })[APPROVAL_HOOK] === true);
}

/** @internal The caller's principal along a context chain. */
export function principalIn(context: ContextResolver | ToolExecutionContext): Principal | undefined {
  const found = context.get(Principal);
  return found instanceof Principal ? found : undefined;
}

/** @internal The scopes of `tool` that `principal` does not hold (all of them without a principal). */
export function missingScopes(tool: AgentTool, principal: Principal | undefined): readonly string[] {
  const scopes = tool.behaviour?.scopes;
  if (scopes === undefined || scopes.length === 0) return [];
  return principal === undefined ? scopes : scopes.filter((scope) => !principal.hasScope(scope));
}

/** @internal The `FORBIDDEN` text for missing scopes: names only what this caller lacks. */
export function scopeRefusal(tool: AgentTool, missing: readonly string[], principal: Principal | undefined): string {
  const listed = missing.slice(0, 5).map((scope) => quoteInput(scope, 60)).join(', ');
  const who = principal === undefined ? 'the call carries no principal' : 'the caller does not hold it';
  return `Tool '${tool.name}' is forbidden: it requires scope ${listed}${missing.length > 5 ? ', …' : ''} and ${who}.`;
}

/** @internal The `FORBIDDEN` text of an `authorize` rule's refusal. */
export function ruleRefusal(tool: AgentTool, failed: boolean): string {
  return failed
    ? `Tool '${tool.name}' is forbidden: the authorization rule failed, so the call was refused.`
    : `Tool '${tool.name}' is forbidden for this caller by the toolkit's authorization rule.`;
}

/** @internal The `FORBIDDEN` text of an `'approval'` verdict in a toolkit without an approval manager. */
export function approvalUnavailable(tool: AgentTool): string {
  return `Tool '${tool.name}' is forbidden: the authorization rule requires a person's approval, but no ApprovalManager hook is installed (toolkit.use(approvals.hook)).`;
}

/** @internal Normalises a verdict: anything but `true` / `'approval'` denies. */
export function verdictOf(value: unknown): AuthorizeVerdict {
  return value === true || value === 'approval' ? value : false;
}

/**
 * @internal Whether a list made for this caller shows `tool`: every scope held, and the rule (when
 * set) not answering `false`. A Promise answer gives a Promise (that never rejects: a rejection
 * hides the tool); a throwing rule hides it.
 */
export function listVerdict(authorize: Authorize | undefined, tool: AgentTool, principal: Principal | undefined, context: ToolExecutionContext): boolean | Promise<boolean> {
  if (missingScopes(tool, principal).length > 0) return false;
  if (authorize === undefined) return true;
  let verdict: AuthorizeVerdict | Promise<AuthorizeVerdict>;
  try {
    verdict = authorize(listRequest(tool, principal, context));
  } catch {
    return false;
  }
  if (isThenable(verdict)) return Promise.resolve(verdict).then((value) => verdictOf(value) !== false, () => false);
  return verdictOf(verdict) !== false;
}

/** @internal {@link listVerdict} for a synchronous list: a Promise answer shows the tool (the call decides). */
export function listsTool(authorize: Authorize | undefined, tool: AgentTool, principal: Principal | undefined, context: ToolExecutionContext): boolean {
  const verdict = listVerdict(authorize, tool, principal, context);
  return verdict instanceof Promise ? true : verdict;
}

/** @internal {@link listVerdict} with the rule's Promise awaited. */
export async function listsToolAsync(authorize: Authorize | undefined, tool: AgentTool, principal: Principal | undefined, context: ToolExecutionContext): Promise<boolean> {
  return listVerdict(authorize, tool, principal, context);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function listRequest(tool: AgentTool, principal: Principal | undefined, context: ToolExecutionContext): AuthorizeRequest {
  return principal === undefined ? { tool, context } : { tool, principal, context };
}

/** @internal The caller's context of a list: the toolkit's, with the caller's own over it. */
export function listContext(toolkitContext: ToolExecutionContext, own: ToolExecutionContext | undefined): ToolExecutionContext {
  return ToolExecutionContext.merge(toolkitContext, own);
}
