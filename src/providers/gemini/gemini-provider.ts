import { randomUUID } from 'node:crypto';
import type { FunctionDeclaration, GenerateContentConfig, GenerateContentParameters, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { isPlainObject } from '../../utils/plain-object';
import type { LLMProvider, LLMRequest, LLMResponse, ProviderStreamEvent, ProviderStreamOptions } from '../../model/llm-types';
import type { ToolCall, ToolSchema } from '../../model/tool-types';
import { ToolkitError } from '../../errors';
import { type GeminiFunctionDeclaration, type LoweringChange, lowerToolOrOmit } from '../../schema/lowering';
import { cachedLowering, mergedOptions, sdkCall } from '../provider-support';
import { sdkStream } from '../stream-support';
import { LOCAL_CALL_ID_PREFIX, type SignatureLookup, toGeminiContents } from './gemini-contents';
import { candidateOf, geminiEvents, malformed, usageOf } from './gemini-stream';

/**
 * Options of {@link GeminiProvider}.
 *
 * @example
 * const options: GeminiProviderOptions = { defaultOptions: { temperature: 0 } };
 */
export interface GeminiProviderOptions {
  /**
   * `GenerateContentConfig` fields sent with every request (e.g. `{ temperature: 0, toolConfig }`);
   * `request.options` win over them.
   */
  defaultOptions?: Record<string, unknown> | undefined;
  /**
   * `'inline'` (the default) sends the images and files of tool results as inline data of the
   * `functionResponse` (Gemini 3); `'omit'` sends their text only, for earlier models.
   */
  toolMedia?: 'inline' | 'omit' | undefined;
  /**
   * Receives the lowering report of each tool the first time it is lowered, a tool left out
   * included (an entry with `omitted: true`). Unset: a tool left out gets a
   * `TOOLWRIGHT_TOOL_SKIPPED` process warning.
   */
  onLoweringReport?: ((report: readonly LoweringChange[]) => void) | undefined;
}

const VENDOR = 'Gemini';

/** How many thought signatures an adapter keeps (the oldest are forgotten first). */
const MAX_SIGNATURES = 1024;

/** Thought signatures of the calls this adapter returned, bounded. */
class SignatureStore implements SignatureLookup {
  private readonly byCall = new Map<string, string>();

  get(callId: string): string | undefined {
    return this.byCall.get(callId);
  }

  set(callId: string, signature: string): void {
    this.byCall.delete(callId);
    this.byCall.set(callId, signature);
    if (this.byCall.size > MAX_SIGNATURES) this.byCall.delete(this.byCall.keys().next().value as string);
  }
}

/**
 * An {@link LLMProvider} over the official `@google/genai` client (a peer dependency you
 * construct yourself; this module only imports its types), calling `models.generateContent`
 * (`models.generateContentStream` for {@link GeminiProvider.stream}).
 * Tools are lowered with `lowerToolSchemas(tools, 'gemini')` and sent as one tool of
 * `functionDeclarations`; system messages become `systemInstruction`; tool results travel as
 * `functionResponse` parts matched by call id and name, a run of them in one content (parallel
 * calls). A function call without an id gets one made up (`toolwright-gemini-…`) that is not sent
 * back. Thought signatures Gemini attaches to function calls are kept (the last 1024 calls) and
 * replayed with them, as Gemini 3 requires. `finishReason` is Gemini's own (`STOP`,
 * `MAX_TOKENS`, `MALFORMED_FUNCTION_CALL`…).
 *
 * Errors: an HTTP or network failure rejects with `ToolkitError('PROVIDER_FAILED')` (status, API
 * status and message in the text, the SDK error as `cause`), as does a reply without a candidate
 * (a blocked prompt names its `blockReason`) or of the wrong shape; an aborted `signal` rejects
 * with `ToolkitError('ABORTED')`. A tool Gemini cannot take is left out and reported.
 *
 * @example
 * import { GoogleGenAI } from '@google/genai';
 * import { GeminiProvider } from 'toolwright/gemini';
 * const provider = new GeminiProvider(new GoogleGenAI({}));
 * const result = await runToolLoop({ provider, model: 'gemini-2.5-flash', toolkit }, messages);
 */
export class GeminiProvider implements LLMProvider {
  private readonly defaultOptions: Record<string, unknown> | undefined;
  private readonly lower: (tool: ToolSchema) => GeminiFunctionDeclaration | undefined;
  private readonly signatures = new SignatureStore();
  private readonly toolMedia: 'inline' | 'omit' | undefined;

  constructor(
    private readonly client: GoogleGenAI,
    options: GeminiProviderOptions = {},
  ) {
    this.defaultOptions = options.defaultOptions;
    this.toolMedia = options.toolMedia;
    this.lower = cachedLowering(VENDOR, (tool) => {
      const { definition, report } = lowerToolOrOmit(tool, 'gemini');
      return { lowered: definition, report };
    }, options.onLoweringReport);
  }

  /**
   * Runs one model turn.
   *
   * @example
   * const turn = await provider.chat({ model: 'gemini-2.5-flash', messages, tools: toolkit.getToolSchemas() });
   * @throws ToolkitError `PROVIDER_FAILED`, `ABORTED`.
   */
  async chat(request: LLMRequest): Promise<LLMResponse> {
    const operation = 'models.generateContent';
    const reply: GenerateContentResponse = await sdkCall(VENDOR, operation, request.signal, () =>
      this.client.models.generateContent(this.params(request, request.signal)),
    );
    const found = candidateOf(reply, operation);
    if (found === undefined) throw new ToolkitError('PROVIDER_FAILED', `${VENDOR} ${operation} returned no candidates.`);
    const texts: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const part of found.parts as readonly Record<string, unknown>[]) {
      if (typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
      if (part.functionCall !== undefined) toolCalls.push(this.callOf(part.functionCall, part.thoughtSignature, operation));
    }
    const response: LLMResponse = { content: texts.join(''), toolCalls };
    if (typeof found.candidate.finishReason === 'string') response.finishReason = found.candidate.finishReason;
    if (isPlainObject(reply.usageMetadata)) response.usage = usageOf(reply.usageMetadata);
    return response;
  }

  /**
   * Runs one model turn as a stream (`models.generateContentStream`): each text part as a text
   * delta, each function call (Gemini sends whole calls) as a call started, its arguments as one
   * JSON delta and complete, then the finish reason and usage. Thought signatures are kept as
   * {@link GeminiProvider.chat} keeps them.
   *
   * @example
   * for await (const event of provider.stream({ model: 'gemini-2.5-flash', messages, tools })) console.log(event.type);
   * @throws ToolkitError `PROVIDER_FAILED` (also when the stream breaks off before its finish reason), `ABORTED`.
   */
  stream(request: LLMRequest, options: ProviderStreamOptions = {}): AsyncIterable<ProviderStreamEvent> {
    const signal = options.signal ?? request.signal;
    const params = this.params(request, signal);
    return geminiEvents(
      sdkStream(VENDOR, 'models.generateContentStream', signal, () => this.client.models.generateContentStream(params)),
      (call, thoughtSignature) => this.callOf(call, thoughtSignature, 'models.generateContentStream'),
    );
  }

  /** The parameters of one request, for `generateContent` and `generateContentStream` alike. */
  private params(request: LLMRequest, signal: AbortSignal | undefined): GenerateContentParameters {
    const declarations = request.tools.map((tool) => this.lower(tool)).filter((tool) => tool !== undefined);
    const { systemInstruction, contents } = toGeminiContents(request.messages, { signatures: this.signatures, toolMedia: this.toolMedia });
    const config: GenerateContentConfig = {
      ...mergedOptions(this.defaultOptions, request.options),
      ...(systemInstruction !== undefined ? { systemInstruction } : {}),
      // copies: the SDK writes its own form of `parameters` into the declarations it is given, and ours are frozen
      ...(declarations.length > 0 ? { tools: [{ functionDeclarations: declarations.map((d) => ({ ...d }) as FunctionDeclaration) }] } : {}),
      ...(signal !== undefined ? { abortSignal: signal } : {}),
    };
    return { model: request.model, contents, config };
  }

  private callOf(call: unknown, thoughtSignature: unknown, operation: string): ToolCall {
    if (!isPlainObject(call) || typeof call.name !== 'string') throw malformed(operation, 'a functionCall has no name');
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : `${LOCAL_CALL_ID_PREFIX}${randomUUID()}`;
    if (typeof thoughtSignature === 'string') this.signatures.set(id, thoughtSignature);
    const args = call.args;
    // args that are no object go on as JSON text: the toolkit answers MALFORMED_ARGUMENTS and shows what was sent
    return { id, name: call.name, arguments: args === undefined ? {} : isPlainObject(args) ? args : JSON.stringify(args) };
  }
}
