import { randomUUID } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ElicitationRequest, ElicitationResult, RootsResult, SamplingRequest, SamplingResult } from '../../../model/client-request-types';
import type { ClientCapability, ClientRequestHandler, ClientRequestOptions } from '../../../model/client-requests';
import type { ToolResult } from '../../../model/tool-types';
import type { AgentTool } from '../../../model/agent-tool';
import { MCP_TOOL_OPTIONS, type McpAgentTool, type McpToolOptions } from '../../shared/mcp-tool-options';
import type { ModernCall } from './modern-call';
import { roundRequestOf } from './modern-catalog';
import { canonicalHash, type RecordedAnswer, type RequestStateBinding } from './request-state';
import type { McpRoundTrips, RoundOutcome } from './round-trips';

/** Why the round's call was stopped: it reached its body, which runs in the task. */
const ESCALATE = new Error('The call reached its body: it goes on as a task, which runs it with the answers gathered so far.');

/** @internal True when `tool`'s before-hooks ask before its task exists (`McpToolOptions.askBeforeTask`: the server's option for it, else its own). */
export function asksBeforeTask(tool: AgentTool | undefined, override: McpToolOptions | undefined): boolean {
  return (override?.askBeforeTask ?? (tool as McpAgentTool | undefined)?.[MCP_TOOL_OPTIONS]?.askBeforeTask) === true;
}

/** @internal How the round before a task ended: questions (`input_required`), a result (no task), or the answers the task replays. */
export type BeforeTaskOutcome = RoundOutcome<ToolResult> | { readonly kind: 'task'; readonly answers: readonly RecordedAnswer[] };

/**
 * @internal The Multi Round-Trip round that precedes a task (the extension's MRTR → task
 * composition): the call runs its before-hooks (an approval question, a hook that asks for input)
 * with the answers the client sent back, and is stopped as it reaches its body — which never runs
 * here. A question from a hook ends the round (`input_required`, no task yet); a call that got
 * past its hooks becomes a task, which runs it again with the answers recorded here; a call a hook
 * ended (denied, answered) ends with that result and no task.
 */
export async function roundBeforeTask(
  trips: McpRoundTrips,
  call: ModernCall,
  binding: RequestStateBinding,
  ctx: ServerContext,
): Promise<BeforeTaskOutcome> {
  const id = `mcp_pretask_${randomUUID()}`;
  let reached = false;
  let used: readonly RecordedAnswer[] = [];
  const outcome = await trips.run<ToolResult>(
    roundRequestOf(ctx, binding, false),
    async (client, signal) => {
      const stop = new AbortController();
      const onRound = (): void => stop.abort(signal.reason);
      signal.addEventListener('abort', onRound, { once: true });
      const watch = call.toolkit.events$.subscribe((event) => {
        if (event.type !== 'call_started' || event.callId !== id) return;
        reached = true;
        stop.abort(ESCALATE);
      });
      try {
        const options = { signal: stop.signal, client, ...(call.context !== undefined && { context: call.context }) };
        const result = await call.view.callTool({ id, name: binding.tool, arguments: { ...binding.arguments } }, options);
        // a call a hook ended also gets its call_started (as it concludes): it reached no body
        if (result.error?.code !== 'ABORTED') reached = false;
        return result;
      } finally {
        watch.unsubscribe();
        signal.removeEventListener('abort', onRound);
        used = client.used;
      }
    },
    (message) => ({ forLLM: message, isError: true, silent: false, async: false, error: { code: 'EXECUTION_FAILED', message } }),
  );
  if (outcome.kind === 'input_required' || !reached) return outcome;
  return { kind: 'task', answers: used };
}

const METHODS: Readonly<Record<ClientCapability, string>> = { elicitation: 'elicitation/create', sampling: 'sampling/createMessage', roots: 'roots/list' };

/**
 * @internal The {@link ClientRequestHandler} of a task that a round before it ({@link
 * roundBeforeTask}) gathered answers for: a before-hook's question is answered from them (matched
 * by its content, in order, as the round matched it); every other question goes to `inner` (parked
 * on the task).
 */
export class PreAnsweredClientRequests implements ClientRequestHandler {
  private readonly queues = new Map<string, unknown[]>();

  constructor(
    private readonly inner: ClientRequestHandler,
    answers: readonly RecordedAnswer[],
  ) {
    for (const { q, a } of answers) this.queues.set(q, [...(this.queues.get(q) ?? []), a]);
  }

  get description(): string | undefined {
    return this.inner.description;
  }

  supports(capability: ClientCapability): boolean {
    return this.inner.supports(capability);
  }

  createMessage(request: SamplingRequest, options: ClientRequestOptions): Promise<SamplingResult> {
    return this.recorded<SamplingResult>('sampling', request, options) ?? this.inner.createMessage(request, options);
  }

  elicit(request: ElicitationRequest, options: ClientRequestOptions): Promise<ElicitationResult> {
    return this.recorded<ElicitationResult>('elicitation', request, options) ?? this.inner.elicit(request, options);
  }

  listRoots(options: ClientRequestOptions): Promise<RootsResult> {
    return this.recorded<RootsResult>('roots', {}, options) ?? this.inner.listRoots!(options);
  }

  private recorded<T>(capability: ClientCapability, request: unknown, options: ClientRequestOptions): Promise<T> | undefined {
    if (options.phase !== 'before') return undefined;
    const answer = this.queues.get(canonicalHash([METHODS[capability], request]))?.shift();
    return answer === undefined ? undefined : Promise.resolve(answer as T);
  }
}
