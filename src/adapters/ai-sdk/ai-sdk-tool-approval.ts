import { ToolkitError } from '../../errors';
import { APPROVAL_STATUS, type SdkTool } from './ai-sdk-tool';
import { madeWithApprovals, type AiSdkToolSet } from './ai-sdk-tools';

/** An `ai` 7 `ToolApprovalStatus`: what a `toolApproval` function answers for one call. */
export type AiSdkToolApprovalStatus =
  | undefined
  | 'not-applicable'
  | 'approved'
  | 'denied'
  | 'user-approval'
  | { readonly type: 'not-applicable' }
  | { readonly type: 'approved' | 'denied' | 'user-approval'; readonly reason?: string | undefined };

/** What `ai` 7 hands a generic `toolApproval` function (`GenericToolApprovalFunction`), as toolwright reads it. */
export interface AiSdkToolApprovalRequest {
  /** The call the model made. */
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
  /** The run's tools. */
  readonly tools?: Readonly<Record<string, unknown>> | undefined;
  /** The run's `toolsContext`. */
  readonly toolsContext?: Readonly<Record<string, unknown>> | undefined;
  /** The messages sent to the model for the step that made the call (with the approval responses when a run resumes). */
  readonly messages?: readonly unknown[] | undefined;
}

/** A generic `toolApproval` function of `ai` 7 (`generateText`, `streamText`, `ToolLoopAgent`). */
export type AiSdkToolApproval = (request: AiSdkToolApprovalRequest) => Promise<AiSdkToolApprovalStatus>;

/** A tool-level `needsApproval` as `ai` 7 reads it (deprecated there, still honoured). */
interface NeedsApproval {
  readonly needsApproval?: boolean | ((input: unknown, options: { toolCallId: string; messages: readonly unknown[]; context: unknown }) => unknown);
}

/** `ai` 7's own answer for a tool that is not toolwright's: the tool's `needsApproval`, if any. */
async function toolLevel(request: AiSdkToolApprovalRequest): Promise<AiSdkToolApprovalStatus> {
  const { toolName, toolCallId, input } = request.toolCall;
  const tool = request.tools !== undefined && Object.hasOwn(request.tools, toolName) ? (request.tools[toolName] as NeedsApproval | undefined) : undefined;
  const needs = tool?.needsApproval;
  const context = request.toolsContext?.[toolName];
  const yes = typeof needs === 'function' ? await needs(input, { toolCallId, messages: request.messages ?? [], context }) : needs === true;
  return yes === true ? 'user-approval' : 'not-applicable';
}

/**
 * `ai` 7's run-level approval setting (`toolApproval`, which takes precedence over the tools'
 * deprecated `needsApproval`) for a tool set made with `toAiSdkTools(view, { approvals })`:
 * toolwright's `ApprovalManager` answers for the set's tools. A call it holds is
 * `'user-approval'` (the SDK emits its `tool-approval-request`); one it does not hold has already
 * run (`'not-applicable'`); an approval replayed, given after a denial, or for a call id
 * toolwright holds nothing for is `'denied'` with the reason — nothing runs, the model is told.
 * Calls of other tools get `otherwise`'s answer, by default `ai` 7's own: the tool's
 * `needsApproval`. Without it, an application's own `toolApproval` function need not know
 * toolwright's tools: their calls still go through toolwright's approval (one approval), and a held
 * one is answered "pending" to the model instead of surfacing in the SDK's flow.
 *
 * @example
 * const tools = toAiSdkTools(toolkit.session(chatId), { approvals: { manager: approvals, decidedBy: userId } });
 * const result = streamText({ model, tools, messages, toolApproval: toAiSdkToolApproval(tools) });
 * @throws ToolkitError `INVALID_OPTIONS` when `tools` was not made with the `approvals` option.
 */
export function toAiSdkToolApproval(tools: AiSdkToolSet, otherwise: AiSdkToolApproval = toolLevel): AiSdkToolApproval {
  const set = tools as unknown as Readonly<Record<string, SdkTool | undefined>>;
  if (!madeWithApprovals(tools)) {
    throw new ToolkitError('INVALID_OPTIONS', 'toAiSdkToolApproval(tools): tools must be made with toAiSdkTools(view, { approvals: { manager } }).');
  }
  return async (request) => {
    const { toolName, toolCallId, input } = request.toolCall;
    const own = set[toolName];
    const status = own === undefined ? undefined : APPROVAL_STATUS.get(own);
    // a tool of the same name from elsewhere (a set spread over this one) is not toolwright's to answer
    if (status === undefined || (request.tools !== undefined && request.tools[toolName] !== own)) return otherwise(request);
    return status(input, { toolCallId, messages: request.messages, context: request.toolsContext?.[toolName] });
  };
}
