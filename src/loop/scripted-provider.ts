import type { LLMProvider, LLMRequest, LLMResponse } from '../common/llm-types';
import type { ToolCall } from '../common/tool-types';
import { ToolkitError } from '../errors';

/** One scripted model turn: a response (ids are filled in when missing) or a function of the request. */
export type ScriptedTurn =
  | { content?: string | undefined; toolCalls?: (Omit<ToolCall, 'id'> & { id?: string | undefined })[] | undefined; finishReason?: string | undefined }
  | ((request: LLMRequest) => LLMResponse | Promise<LLMResponse>);

/**
 * A model you script turn by turn, for tests and demos: each `chat` returns the next turn.
 * Every request is recorded in `requests`.
 *
 * @example
 * const model = new ScriptedProvider([
 *   ScriptedProvider.toolCall('get_weather', { city: 'Paris' }),
 *   ScriptedProvider.reply('It is sunny in Paris.'),
 * ]);
 */
export class ScriptedProvider implements LLMProvider {
  /** The requests received, in order (messages copied at the time of the call). */
  readonly requests: LLMRequest[] = [];
  private next = 0;
  private ids = 0;

  constructor(private readonly turns: readonly ScriptedTurn[]) {}

  /** A turn that answers with text. */
  static reply(content: string): ScriptedTurn {
    return { content };
  }

  /** A turn that calls one tool. */
  static toolCall(name: string, args: Record<string, unknown> | string, content = ''): ScriptedTurn {
    return { content, toolCalls: [{ name, arguments: args }] };
  }

  /** A turn that calls several tools at once (parallel tool calls). */
  static toolCalls(calls: { name: string; arguments: Record<string, unknown> | string }[], content = ''): ScriptedTurn {
    return { content, toolCalls: calls };
  }

  /** How many turns are left. */
  get remaining(): number {
    return this.turns.length - this.next;
  }

  async chat(request: LLMRequest): Promise<LLMResponse> {
    if (request.signal?.aborted) throw request.signal.reason ?? new ToolkitError('ABORTED', 'ScriptedProvider: the request was aborted.');
    this.requests.push({ ...request, messages: request.messages.map((m) => ({ ...m })) });
    const turn = this.turns[this.next];
    if (turn === undefined) {
      throw new ToolkitError('PROVIDER_FAILED', `ScriptedProvider: the script has no turn ${this.next + 1} (it has ${this.turns.length}).`);
    }
    this.next++;
    if (typeof turn === 'function') return turn(request);
    const toolCalls = (turn.toolCalls ?? []).map((call) => ({ ...call, id: call.id ?? `call_${++this.ids}` }));
    return {
      content: turn.content ?? '',
      toolCalls,
      finishReason: turn.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
    };
  }
}
