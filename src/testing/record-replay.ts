import path from 'node:path';
import type { LLMProvider, LLMRequest, LLMResponse, ProviderStreamEvent, ProviderStreamOptions } from '../model/llm-types';
import { quoteInput } from '../utils/quote-input';
import { ToolkitError } from '../errors';
import { readCassette, recordedRequest, recordedResponse, writeCassette, type Interaction, type RecordedError } from './cassette';
import { requestDiff } from './request-diff';

/** A provider that records every turn it passes on to another one. */
export interface RecordingProvider extends LLMProvider {
  /** The cassette file (absolute). */
  readonly file: string;
  /** How many turns have been recorded so far. */
  readonly recorded: number;
}

/** A provider that answers from a cassette. */
export interface ReplayProvider extends LLMProvider {
  /** The cassette file (absolute). */
  readonly file: string;
  /** How many recorded turns have not been asked for yet. */
  readonly remaining: number;
}

function recordedError(error: unknown): RecordedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
}

function aborted(request: LLMRequest, who: string): void {
  if (request.signal?.aborted) throw request.signal.reason ?? new ToolkitError('ABORTED', `${who}: the request was aborted.`);
}

/**
 * Wraps any provider and writes a cassette of every turn to `file`: the request (model, messages,
 * tools, options; never the abort signal) and the response, or the error the provider threw.
 * The file is JSON, pretty, keys in a stable order, rewritten whole after each turn (a run that
 * stops halfway leaves a valid cassette); an existing file is replaced by the first turn. Option
 * values named like credentials (`apiKey`, `authorization`, `headers.cookie`, `*_token`,
 * `password`, `secret`…) are written as `[REDACTED]`. Replay it with {@link replayProvider}.
 *
 * @example
 * const model = process.env.RECORD ? recordProvider(new OpenAIProvider(new OpenAI()), 'test/cassettes/weather.json')
 *   : replayProvider('test/cassettes/weather.json');
 * const result = await runToolLoop({ provider: model, tools: toolkit, model: 'gpt-5' }, messages);
 */
export function recordProvider(provider: LLMProvider, file: string): RecordingProvider {
  const absolute = path.resolve(file);
  const interactions: Interaction[] = [];
  const record = (interaction: Interaction, index: number): void => {
    interactions[index] = interaction;
    writeCassette(absolute, interactions.filter((entry) => entry !== undefined));
  };
  const reserve = (): number => interactions.length++;
  const recorder: RecordingProvider = {
    file: absolute,
    get recorded() {
      return interactions.filter((entry) => entry !== undefined).length;
    },
    async chat(request: LLMRequest): Promise<LLMResponse> {
      const index = reserve();
      const asked = recordedRequest(request);
      try {
        const response = await provider.chat(request);
        record({ kind: 'chat', request: asked, response: recordedResponse(response) }, index);
        return response;
      } catch (error) {
        record({ kind: 'chat', request: asked, error: recordedError(error) }, index);
        throw error;
      }
    },
  };
  const stream = provider.stream?.bind(provider);
  if (stream === undefined) return recorder;
  return {
    file: absolute,
    get recorded() {
      return recorder.recorded;
    },
    chat: recorder.chat,
    async *stream(request: LLMRequest, options?: ProviderStreamOptions): AsyncGenerator<ProviderStreamEvent, void> {
      const index = reserve();
      const asked = recordedRequest(request);
      const events: ProviderStreamEvent[] = [];
      let error: RecordedError | undefined;
      try {
        for await (const event of stream(request, options)) {
          events.push(recordedResponse(event));
          yield event;
        }
      } catch (thrown) {
        error = recordedError(thrown);
        throw thrown;
      } finally {
        record({ kind: 'stream', request: asked, events, ...(error !== undefined ? { error } : {}) }, index);
      }
    },
  };
}

/**
 * A provider that answers from a cassette written by {@link recordProvider}: turn by turn, in the
 * recorded order, the same responses (tool call ids included) or the same errors, with no network
 * and no model. Each request must equal the recorded one (model, messages, tools, options; option
 * credentials aside): when it drifts, `chat` throws `PROVIDER_FAILED` with the file, the turn's
 * index and the differing paths (`messages[2].content: recorded "…", got "…"`, bounded). A
 * missing or malformed cassette throws here, and a request past the last recorded turn throws
 * from `chat`, both naming the file.
 *
 * @throws ToolkitError `PROVIDER_FAILED` when the cassette is missing, unreadable or not a cassette.
 */
export function replayProvider(file: string): ReplayProvider {
  const absolute = path.resolve(file);
  const { interactions } = readCassette(absolute);
  const where = quoteInput(absolute, 200);
  let next = 0;
  /** The next recorded turn, checked against `request` and asked for by the method `kind`. */
  const turn = <K extends Interaction['kind']>(request: LLMRequest, kind: K): Extract<Interaction, { kind: K }> => {
    aborted(request, 'replayProvider');
    const index = next;
    const interaction = interactions[index];
    if (interaction === undefined) {
      throw new ToolkitError('PROVIDER_FAILED', `replayProvider: request ${index} has no recorded turn in ${where} (it holds ${interactions.length}); record the cassette again.`);
    }
    if (interaction.kind !== kind) {
      throw new ToolkitError('PROVIDER_FAILED', `replayProvider: request ${index} was recorded from \`${interaction.kind}\` in ${where} and is asked through \`${kind}\`; record the cassette again with the same loop.`);
    }
    const differences = requestDiff(interaction.request, recordedRequest(request));
    if (differences.length > 0) {
      throw new ToolkitError(
        'PROVIDER_FAILED',
        `replayProvider: request ${index} differs from the one recorded in ${where}; record the cassette again if the change is meant:\n  ${differences.join('\n  ')}`,
      );
    }
    next++;
    return interaction as Extract<Interaction, { kind: K }>;
  };
  const failure = (index: number, error: RecordedError): ToolkitError =>
    new ToolkitError('PROVIDER_FAILED', `replayProvider: request ${index} failed when recorded${error.code === undefined ? '' : ` (${quoteInput(error.code)})`}: ${quoteInput(error.message, 500)}`);
  const replay: ReplayProvider = {
    file: absolute,
    get remaining() {
      return interactions.length - next;
    },
    async chat(request: LLMRequest): Promise<LLMResponse> {
      const interaction = turn(request, 'chat');
      if (interaction.error !== undefined) throw failure(next - 1, interaction.error);
      return structuredClone(interaction.response as LLMResponse);
    },
  };
  // a cassette with streamed turns answers `stream`; one without leaves `streamToolLoop` on `chat`, as when it was recorded
  if (!interactions.some((interaction) => interaction.kind === 'stream')) return replay;
  return {
    file: absolute,
    get remaining() {
      return replay.remaining;
    },
    chat: replay.chat,
    async *stream(request: LLMRequest): AsyncGenerator<ProviderStreamEvent, void> {
      const interaction = turn(request, 'stream');
      const index = next - 1;
      for (const event of interaction.events) yield structuredClone(event);
      if (interaction.error !== undefined) throw failure(index, interaction.error);
    },
  };
}
