import type { AgentTool } from '../../../model/agent-tool';
import { quoteInput } from '../../../utils/quote-input';
import type { ToolResult } from '../../../model/tool-types';
import type { McpToolOptions } from '../../shared/mcp-tool-options';
import { elicitationShapeOf, FormValidators, rootsAnswerOf, samplingAnswerOf } from '../mcp-client-requests';
import { ReplayingClientRequests, type ReplayAnswer } from './replaying-client-requests';
import { RequestStateRefusal, type RequestStateBinding, type RequestStateCodec } from './request-state';

/** @internal One 2026-07-28 `tools/call` round as it arrived. */
export interface RoundRequest {
  /** Who calls which tool with which arguments (what the state is bound to). */
  readonly binding: RequestStateBinding;
  /** `params.requestState` (absent on a first call). */
  readonly requestState?: unknown;
  /** `params.inputResponses` (absent on a first call). */
  readonly inputResponses?: unknown;
  /** The client's capabilities from the request's `_meta`. */
  readonly capabilities: unknown;
  /** True when the tool is read-only or idempotent (see {@link ReplayingClientRequests}). */
  readonly replaySafe: boolean;
  /** The request's own signal (the client went away). */
  readonly signal?: AbortSignal | undefined;
}

/** @internal What a round ends with: the call's result, or the questions of the next round and its state. */
export type RoundOutcome<T = ToolResult> =
  | { readonly kind: 'complete'; readonly result: T }
  | {
      readonly kind: 'input_required';
      readonly inputRequests: Readonly<Record<string, { readonly method: string; readonly params: unknown }>>;
      readonly requestState: string;
    };

/** @internal Runs the call with a handler that replays the recorded answers; the signal stops it when the round ends. */
export type RoundCall<T = ToolResult> = (handler: ReplayingClientRequests, signal: AbortSignal) => Promise<T>;

/**
 * @internal True when `tool`'s body may run again with the answers (the side-effect rule): it is
 * read-only or idempotent — by the server's MCP options for it when given (the developer's),
 * else by its own `behaviour.annotations` (an imported tool's are MCP's untrusted defaults).
 */
export function replaySafeOf(tool: AgentTool | undefined, override: McpToolOptions | undefined): boolean {
  const hints = override?.annotations;
  if (hints !== undefined) return hints.readOnlyHint === true || hints.idempotentHint === true;
  const own = tool?.behaviour?.annotations;
  return own?.readOnly === true || own?.idempotent === true;
}

/**
 * @internal Multi Round-Trip Requests for `tools/call` (MCP 2026-07-28): checks what the client
 * sent back (the signed state, its answers), runs the call again from the start with every answer
 * recorded so far, and answers with the result or the next round's questions under a fresh state.
 * Refusals (`RequestStateRefusal`, JSON-RPC -32602) come before the call runs and before the
 * state is consumed, except an answer that fails its form (checked when the call reaches its question).
 */
export class McpRoundTrips {
  constructor(
    private readonly codec: RequestStateCodec,
    private readonly forms: FormValidators = new FormValidators(),
  ) {}

  /**
   * One round: `call` runs the call; `errorOf` makes the error result of a call refused by the
   * side-effect rule (or whose answers outgrew a state).
   *
   * @throws RequestStateRefusal
   */
  async run<T = ToolResult>(request: RoundRequest, call: RoundCall<T>, errorOf: (message: string) => T): Promise<RoundOutcome<T>> {
    const answers = await this.answersOf(request);
    const stop = new AbortController();
    const outer = request.signal;
    const onOuter = (): void => stop.abort(outer!.reason);
    if (outer?.aborted) onOuter();
    else outer?.addEventListener('abort', onOuter, { once: true });
    const handler = new ReplayingClientRequests(
      {
        toolName: request.binding.tool,
        capabilities: request.capabilities,
        replaySafe: request.replaySafe,
        forms: this.forms,
        endRound: () => stop.abort(new Error('The call stopped to ask the client (MCP input_required); it runs again with the answers.')),
      },
      answers,
    );
    let result: T;
    try {
      result = await call(handler, stop.signal);
    } finally {
      outer?.removeEventListener('abort', onOuter);
    }
    if (handler.refusal !== undefined) throw handler.refusal;
    if (handler.unsafe !== undefined) return { kind: 'complete', result: errorOf(handler.unsafe) };
    if (handler.pending.length === 0) return { kind: 'complete', result };
    const inputRequests: Record<string, { method: string; params: unknown }> = {};
    for (const question of handler.pending) inputRequests[question.key] = { method: question.m, params: question.params };
    const requestState = this.codec.mint(request.binding, { answers: handler.used, asked: handler.pending.map(({ key, q, m }) => ({ key, q, m })) });
    if (!this.codec.fits(requestState)) {
      return {
        kind: 'complete',
        result: errorOf(
          `Tool '${request.binding.tool}' asked the client more than one request state can carry: the answers recorded so far exceed the state's size limit. ` +
            'Ask fewer or smaller questions in one call.',
        ),
      };
    }
    return { kind: 'input_required', inputRequests, requestState };
  }

  /** The answers the call replays: the state's, then this request's (shape-checked), after the state is consumed. */
  private async answersOf(request: RoundRequest): Promise<ReplayAnswer[]> {
    const responses = request.inputResponses;
    if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses))) {
      throw new RequestStateRefusal('Invalid inputResponses: it must be an object of answers keyed by the ids of the questions asked.');
    }
    // answers to questions that were not asked (none is, without a state) are ignored, as the
    // revision says: the call runs from its recorded answers and asks again for what is missing
    if (request.requestState === undefined) return [];
    const state = this.codec.verify(request.requestState, request.binding);
    const fresh: ReplayAnswer[] = [];
    for (const question of state.asked) {
      if (!Object.prototype.hasOwnProperty.call(responses, question.key)) continue;
      const raw = (responses as Record<string, unknown>)[question.key];
      try {
        const a = question.m === 'sampling/createMessage' ? samplingAnswerOf(raw) : question.m === 'roots/list' ? rootsAnswerOf(raw) : elicitationShapeOf(raw);
        fresh.push({ q: question.q, a, fresh: question.key });
      } catch (error) {
        throw new RequestStateRefusal(`Invalid inputResponses: ${quoteInput(question.key)}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    await this.codec.consume(state);
    return [...state.answers.map((answer) => ({ q: answer.q, a: answer.a })), ...fresh];
  }
}
