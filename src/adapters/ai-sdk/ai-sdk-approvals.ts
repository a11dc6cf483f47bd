import type { FrameworkApprovalBridge } from '../framework-approvals';

/** The framework's decision about one call, read from the conversation. */
interface SdkDecision {
  readonly toolName: string;
  readonly approved: boolean;
  readonly reason?: string | undefined;
}

/** A message part as the adapter reads it (`ModelMessage` content parts of `ai` 6 and 7). */
interface Part {
  readonly type?: unknown;
  readonly toolCallId?: unknown;
  readonly toolName?: unknown;
  readonly approvalId?: unknown;
  readonly approved?: unknown;
  readonly reason?: unknown;
}

const partsOf = (message: unknown): readonly Part[] => {
  const content = (message as { content?: unknown } | null)?.content;
  return Array.isArray(content) ? (content as Part[]).filter((p) => typeof p === 'object' && p !== null) : [];
};

/**
 * @internal The approval decisions in an AI SDK conversation, by tool call id: each
 * `tool-approval-response` part matched to its `tool-approval-request` and that request's tool call.
 * Linear in the conversation's size.
 */
export function sdkDecisions(messages: unknown): ReadonlyMap<string, SdkDecision> {
  const decisions = new Map<string, SdkDecision>();
  if (!Array.isArray(messages)) return decisions;
  const toolNames = new Map<string, string>();
  const callOfApproval = new Map<string, string>();
  for (const message of messages) {
    for (const part of partsOf(message)) {
      if (part.type === 'tool-call' && typeof part.toolCallId === 'string' && typeof part.toolName === 'string') toolNames.set(part.toolCallId, part.toolName);
      if (part.type === 'tool-approval-request' && typeof part.approvalId === 'string' && typeof part.toolCallId === 'string') callOfApproval.set(part.approvalId, part.toolCallId);
    }
  }
  for (const message of messages) {
    for (const part of partsOf(message)) {
      if (part.type !== 'tool-approval-response' || typeof part.approvalId !== 'string') continue;
      const callId = callOfApproval.get(part.approvalId);
      const toolName = callId === undefined ? undefined : toolNames.get(callId);
      if (callId === undefined || toolName === undefined) continue;
      // the first answer counts: a later "approve" never overturns a denial
      if (decisions.get(callId)?.approved === false) continue;
      decisions.set(callId, { toolName, approved: part.approved === true, reason: typeof part.reason === 'string' ? part.reason : undefined });
    }
  }
  return decisions;
}

/**
 * @internal Records in toolwright the denials the conversation holds (the SDK answers a denied
 * call without calling the tool, so they are read from the messages on the tool set's next use),
 * and returns the conversation's decisions.
 */
export async function settleDenials(bridge: FrameworkApprovalBridge, messages: unknown, runContext?: unknown): Promise<ReadonlyMap<string, SdkDecision>> {
  const decisions = sdkDecisions(messages);
  for (const [id, decision] of decisions) {
    if (!decision.approved) await bridge.deny({ id, name: decision.toolName, runContext }, decision.reason);
  }
  return decisions;
}
