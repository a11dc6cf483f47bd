import type { ToolContent } from './tool-content';
import type { ToolCall, ToolSchema } from './tool-types';

/** One message of a conversation, provider-neutral. */
export interface Message {
  /** Who speaks. `tool` messages answer a call named by `toolCallId`. */
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** The text. */
  content: string;
  /** The tool calls an assistant message makes. */
  toolCalls?: ToolCall[] | undefined;
  /** The call a `tool` message answers. */
  toolCallId?: string | undefined;
  /** The tool's name on a `tool` message (some providers want it). */
  name?: string | undefined;
  /** True on a `tool` message that reports a failed call. */
  isError?: boolean | undefined;
  /**
   * On a `tool` message of a rich result: its content parts meant for the model. `content` stays
   * the text; the provider adapters send the images and files their API takes after it
   * (Anthropic, OpenAI, Gemini: see the README's table of rich results per provider).
   */
  parts?: readonly ToolContent[] | undefined;
}

/** Token counts, when the provider reports them. */
export interface LLMUsage {
  /** Tokens in the prompt. */
  inputTokens?: number | undefined;
  /** Tokens generated. */
  outputTokens?: number | undefined;
  /** Both together. */
  totalTokens?: number | undefined;
}

/** One model turn. */
export interface LLMResponse {
  /** The text of the turn (may be empty when it only calls tools). */
  content: string;
  /** The tool calls of the turn (empty when none). */
  toolCalls: ToolCall[];
  /** Why the model stopped (`stop`, `tool_calls`, `end_turn`…). */
  finishReason?: string | undefined;
  /** Token usage, when reported. */
  usage?: LLMUsage | undefined;
}

/** What a provider is asked for one turn. */
export interface LLMRequest {
  /** The model name. */
  model: string;
  /** The conversation so far. */
  messages: Message[];
  /** The tools the model may call. */
  tools: ToolSchema[];
  /** Provider-specific options (temperature, max tokens…). */
  options?: Record<string, unknown> | undefined;
  /** Aborts the request. */
  signal?: AbortSignal | undefined;
}

/**
 * Any model behind one method. Adapters: `OpenAIProvider` (`toolwright/openai`),
 * `AnthropicProvider` (`toolwright/anthropic`), and `ScriptedProvider` for tests and demos.
 */
export interface LLMProvider {
  /** Runs one model turn. */
  chat(request: LLMRequest): Promise<LLMResponse>;
  /**
   * Runs one model turn as a stream of events (optional; `streamToolLoop` falls back to `chat`).
   * Each tool call is `tool_call_started`, `tool_call_delta`s, then `tool_call_complete` as soon as
   * its arguments are whole; `finish` comes last. Breaking out of the iteration or aborting
   * `signal` ends the request.
   */
  stream?(request: LLMRequest, options?: ProviderStreamOptions): AsyncIterable<ProviderStreamEvent>;
}

/** Options of {@link LLMProvider.stream}. */
export interface ProviderStreamOptions {
  /** Aborts the request (the request's own `signal` does too). */
  signal?: AbortSignal | undefined;
}

/**
 * One event of a streamed model turn: a piece of text, a tool call starting, a piece of its
 * arguments (JSON text), the call complete, and the end of the turn.
 */
export type ProviderStreamEvent =
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'tool_call_started'; readonly id: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'tool_call_complete'; readonly id: string; readonly name: string; readonly arguments: ToolCall['arguments'] }
  | { readonly type: 'finish'; readonly stopReason?: string | undefined; readonly usage?: LLMUsage | undefined };
