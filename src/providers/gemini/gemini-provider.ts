import { randomUUID } from 'node:crypto';
import type { FunctionDeclaration, GenerateContentConfig, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { isPlainObject } from '../../common/plain-object';
import type { LLMProvider, LLMRequest, LLMResponse, LLMUsage } from '../../common/llm-types';
import type { ToolCall, ToolSchema } from '../../common/tool-types';
import { ToolkitError } from '../../errors';
import { type GeminiFunctionDeclaration, type LoweringChange, lowerToolOrOmit } from '../../schema/lowering';
import { cachedLowering, mergedOptions, sdkCall } from '../provider-support';
import { LOCAL_CALL_ID_PREFIX, type SignatureLookup, toGeminiContents } from './gemini-contents';

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
   * `functionResponse` (Gemini 3); `'omit'` sends their text view only, for earlier models.
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
 * construct yourself; this module only imports its types), calling `models.generateContent`.
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
    const declarations = request.tools.map((tool) => this.lower(tool)).filter((tool) => tool !== undefined);
    const { systemInstruction, contents } = toGeminiContents(request.messages, { signatures: this.signatures, toolMedia: this.toolMedia });
    const config: GenerateContentConfig = {
      ...mergedOptions(this.defaultOptions, request.options),
      ...(systemInstruction !== undefined ? { systemInstruction } : {}),
      // copies: the SDK writes its own form of `parameters` into the declarations it is given, and ours are frozen
      ...(declarations.length > 0 ? { tools: [{ functionDeclarations: declarations.map((d) => ({ ...d }) as FunctionDeclaration) }] } : {}),
      ...(request.signal !== undefined ? { abortSignal: request.signal } : {}),
    };
    const reply: GenerateContentResponse = await sdkCall(VENDOR, 'models.generateContent', request.signal, () =>
      this.client.models.generateContent({ model: request.model, contents, config }),
    );
    return this.turnOf(reply);
  }

  private turnOf(reply: GenerateContentResponse): LLMResponse {
    const candidates: unknown = reply?.candidates;
    if (!Array.isArray(candidates) || candidates.length === 0) {
      const blocked = reply?.promptFeedback?.blockReason;
      throw new ToolkitError(
        'PROVIDER_FAILED',
        blocked !== undefined
          ? `${VENDOR} models.generateContent blocked the prompt: ${String(blocked)}.`
          : `${VENDOR} models.generateContent returned no candidates.`,
      );
    }
    const candidate: unknown = candidates[0];
    if (!isPlainObject(candidate)) throw malformed('candidates[0] is not an object');
    const content = candidate.content;
    const parts: unknown = content === undefined ? [] : isPlainObject(content) ? (content.parts ?? []) : undefined;
    if (!Array.isArray(parts)) throw malformed('candidates[0].content.parts is not an array');
    const texts: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const part of parts) {
      if (!isPlainObject(part)) throw malformed('a part is not an object');
      if (typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
      if (part.functionCall !== undefined) toolCalls.push(this.callOf(part.functionCall, part.thoughtSignature));
    }
    const response: LLMResponse = { content: texts.join(''), toolCalls };
    if (typeof candidate.finishReason === 'string') response.finishReason = candidate.finishReason;
    if (isPlainObject(reply.usageMetadata)) response.usage = usageOf(reply.usageMetadata);
    return response;
  }

  private callOf(call: unknown, thoughtSignature: unknown): ToolCall {
    if (!isPlainObject(call) || typeof call.name !== 'string') throw malformed('a functionCall has no name');
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : `${LOCAL_CALL_ID_PREFIX}${randomUUID()}`;
    if (typeof thoughtSignature === 'string') this.signatures.set(id, thoughtSignature);
    const args = call.args;
    // args that are no object go on as JSON text: the toolkit answers MALFORMED_ARGUMENTS and shows what was sent
    return { id, name: call.name, arguments: args === undefined ? {} : isPlainObject(args) ? args : JSON.stringify(args) };
  }
}

function malformed(what: string): ToolkitError {
  return new ToolkitError('PROVIDER_FAILED', `${VENDOR} models.generateContent returned a malformed response: ${what}.`);
}

/** A token count as reported, 0 when absent or not a count (a hostile reply cannot make `usage` a string). */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Output tokens include the thinking tokens, which Gemini counts apart from `candidatesTokenCount`. */
function usageOf(usage: NonNullable<GenerateContentResponse['usageMetadata']>): LLMUsage {
  const inputTokens = count(usage.promptTokenCount) + count(usage.toolUsePromptTokenCount);
  const outputTokens = count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount);
  return { inputTokens, outputTokens, totalTokens: usage.totalTokenCount === undefined ? inputTokens + outputTokens : count(usage.totalTokenCount) };
}
