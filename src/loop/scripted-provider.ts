import type { LLMProvider, LLMRequest, LLMResponse, ProviderStreamEvent, ProviderStreamOptions } from '../model/llm-types';
import type { ToolCall } from '../model/tool-types';
import { ToolkitError } from '../errors';
import { DEFAULT_MAX_ARGUMENT_CHARS, TurnAssembler, responseEvents } from './loop-parts';

/** A scripted streamed turn: its events, or a function making them (it may wait, to test timing and abort). */
export interface ScriptedStreamTurn {
  readonly stream: readonly ProviderStreamEvent[] | ((request: LLMRequest, signal: AbortSignal | undefined) => AsyncIterable<ProviderStreamEvent>);
}

/** One scripted model turn: a response (ids are filled in when missing) or a function of the request. */
export type ScriptedTurn =
  | { content?: string | undefined; toolCalls?: (Omit<ToolCall, 'id'> & { id?: string | undefined })[] | undefined; finishReason?: string | undefined }
  | ((request: LLMRequest) => LLMResponse | Promise<LLMResponse>)
  | ScriptedStreamTurn;

/**
 * A model you script turn by turn, for tests and demos: each `chat` or `stream` returns the next
 * turn (`stream` tells a plain turn as events; `chat` assembles a streamed turn's events).
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

  /** A streamed turn made of these events (chunks), e.g. a call whose arguments arrive in pieces. */
  static chunks(events: ScriptedStreamTurn['stream']): ScriptedTurn {
    return { stream: events };
  }

  /** How many turns are left. */
  get remaining(): number {
    return this.turns.length - this.next;
  }

  async chat(request: LLMRequest): Promise<LLMResponse> {
    return this.answer(this.take(request), request);
  }

  /** The next turn as events: a streamed turn's own, or a plain turn's text, calls and finish. */
  async *stream(request: LLMRequest, options: ProviderStreamOptions = {}): AsyncIterable<ProviderStreamEvent> {
    const signal = options.signal ?? request.signal;
    const turn = this.take({ ...request, signal });
    if (typeof turn === 'object' && 'stream' in turn) yield* this.streamOf(turn, request, signal);
    else yield* responseEvents(await this.answer(turn, request));
  }

  private async answer(turn: ScriptedTurn, request: LLMRequest): Promise<LLMResponse> {
    if (typeof turn === 'function') return turn(request);
    if ('stream' in turn) {
      const assembler = new TurnAssembler(DEFAULT_MAX_ARGUMENT_CHARS);
      for await (const event of this.streamOf(turn, request, request.signal)) assembler.take(event);
      return assembler.response();
    }
    const toolCalls = (turn.toolCalls ?? []).map((call) => ({ ...call, id: call.id ?? `call_${++this.ids}` }));
    return {
      content: turn.content ?? '',
      toolCalls,
      finishReason: turn.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
    };
  }

  private streamOf(turn: ScriptedStreamTurn, request: LLMRequest, signal: AbortSignal | undefined): AsyncIterable<ProviderStreamEvent> | Iterable<ProviderStreamEvent> {
    return typeof turn.stream === 'function' ? turn.stream(request, signal) : turn.stream;
  }

  /** Records the request and takes the next turn. */
  private take(request: LLMRequest): ScriptedTurn {
    if (request.signal?.aborted) throw request.signal.reason ?? new ToolkitError('ABORTED', 'ScriptedProvider: the request was aborted.');
    this.requests.push({ ...request, messages: request.messages.map((m) => ({ ...m })) });
    const turn = this.turns[this.next];
    if (turn === undefined) {
      throw new ToolkitError('PROVIDER_FAILED', `ScriptedProvider: the script has no turn ${this.next + 1} (it has ${this.turns.length}).`);
    }
    this.next++;
    return turn;
  }
}
