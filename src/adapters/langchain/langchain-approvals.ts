import { ToolExecutionContext } from '../../model/execution-context';
import type { FrameworkApprovalBridge } from '../framework-approvals';
import { LANGCHAIN_BRIDGES, type ToolwrightLangChainTool } from './langchain-tools';

/** A decision LangChain's human-in-the-loop middleware offers a person. */
export type LangChainDecisionType = 'approve' | 'edit' | 'reject';

/** What {@link langChainInterruptOn}'s `when` reads of the middleware's request (LangChain's `ToolCallRequest`). */
export interface LangChainInterruptRequest {
  readonly toolCall: { readonly id?: string | undefined; readonly name: string; readonly args: unknown };
  readonly state?: { readonly messages?: readonly unknown[] } | undefined;
  readonly runtime?: { readonly context?: unknown } | undefined;
}

/** One tool's entry of `humanInTheLoopMiddleware({ interruptOn })` (LangChain's `InterruptOnConfig`). */
export interface LangChainInterruptOn {
  /** The decisions the person may take. */
  readonly allowedDecisions: LangChainDecisionType[];
  /** Interrupt for this call? toolwright's `ApprovalManager` decides (see {@link langChainInterruptOn}). */
  readonly when: (request: LangChainInterruptRequest) => Promise<boolean>;
}

/** The longest rejection message kept as the reason of a rejected call. */
const MAX_REASON = 500;

/** A message of the agent's state, as read here (a LangChain `ToolMessage` has these fields). */
interface StateMessage {
  readonly tool_call_id?: unknown;
  readonly content?: unknown;
}

/**
 * Records in toolwright the rejections the middleware answered: a call toolwright holds whose id
 * already has a tool message in the conversation was answered without running (the middleware's
 * "reject" — an approved call runs through toolwright and is no longer held).
 */
function settleRejections(bridge: FrameworkApprovalBridge, messages: readonly unknown[] | undefined, runContext: unknown): Promise<void> {
  const answered = new Map<string, string>();
  for (const message of messages ?? []) {
    const { tool_call_id: id, content } = (message ?? {}) as StateMessage;
    if (typeof id === 'string') answered.set(id, typeof content === 'string' ? content.slice(0, MAX_REASON) : '');
  }
  if (answered.size === 0) return Promise.resolve();
  return bridge.settle((held) => {
    const reason = answered.get(held.call.id);
    return reason === undefined ? undefined : reason || false;
  }, runContext);
}

/**
 * The `interruptOn` of LangChain's `humanInTheLoopMiddleware` for tools made with
 * `toLangChainTools(view, { approvals })`: one entry per tool, whose `when` asks toolwright. The
 * call goes through `view.callTool`; when the `ApprovalManager` holds it the middleware
 * interrupts (`HITLRequest`, resumed with `Command({ resume: { decisions } })`), otherwise it has
 * already run and the tool answers with its result. "approve" runs the held call once, through
 * `approve`; "reject" never runs it and is recorded as a rejection the next time the middleware
 * asks (the conversation then holds the rejection message); "edit" is refused (what runs must be
 * what was shown) and the held call rejected. Tools made without `approvals` are left out.
 *
 * @example
 * const tools = toLangChainTools(toolkit.session(threadId), { approvals: { manager: approvals } });
 * const agent = createAgent({ model, tools, checkpointer, middleware: [humanInTheLoopMiddleware({ interruptOn: langChainInterruptOn(tools) })] });
 */
export function langChainInterruptOn(
  tools: readonly ToolwrightLangChainTool[],
  options: { readonly allowedDecisions?: readonly LangChainDecisionType[] | undefined } = {},
): Record<string, LangChainInterruptOn> {
  const allowedDecisions = [...(options.allowedDecisions ?? ['approve', 'reject'])];
  const entries: Record<string, LangChainInterruptOn> = {};
  for (const tool of tools) {
    const bridge = LANGCHAIN_BRIDGES.get(tool);
    if (bridge === undefined) continue;
    const name = tool.name;
    const when = async ({ toolCall, state, runtime }: LangChainInterruptRequest): Promise<boolean> => {
      const runContext = runtime?.context instanceof ToolExecutionContext ? runtime.context : undefined;
      await settleRejections(bridge, state?.messages, runContext);
      // without an id the call cannot be keyed: the middleware asks, and toolwright holds it again when it runs
      if (typeof toolCall.id !== 'string' || toolCall.id === '') return true;
      return bridge.needsApproval({ name, id: toolCall.id, arguments: toolCall.args, runContext }, false);
    };
    entries[name] = { allowedDecisions: [...allowedDecisions], when };
  }
  return entries;
}
