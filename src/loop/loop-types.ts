import type { LLMProvider, LLMResponse, LLMUsage, Message } from '../model/llm-types';
import type { ToolCall, ToolResult } from '../model/tool-types';
import type { CallProgress } from '../executor/executor-parts';
import type { ToolExecutionContext } from '../model/execution-context';
import type { ToolView } from '../toolkit/tool-view';

/** Why a loop stopped. */
export type LoopStopReason =
  | 'completed'
  | 'max_iterations'
  | 'max_tool_calls'
  | 'time_budget'
  | 'return_direct';

/** One model turn of the loop, as reported to `onTurn`. */
export interface LoopTurn {
  /** 1 for the first model call. */
  iteration: number;
  /** What the model answered. */
  response: LLMResponse;
  /** The results of the turn's tool calls, in call order (empty when it called none). */
  results: ToolResult[];
}

/** Options of {@link runToolLoop}. */
export interface ToolLoopOptions {
  /** The model. */
  provider: LLMProvider;
  /** The model name passed to the provider. */
  model: string;
  /** The toolkit, or one session of it. */
  toolkit: ToolView;
  /** Most model calls (default 10). Reaching it is not an error and makes no extra call. */
  maxIterations?: number | undefined;
  /** Agent-level context objects (between call-level and toolkit-level in the chain); its `Principal` decides which tools the model is offered and may call. */
  context?: ToolExecutionContext | undefined;
  /** Cancels the loop: the model request and running tools are aborted and the loop rejects. */
  signal?: AbortSignal | undefined;
  /** Provider options passed on every turn (temperature, max tokens…). */
  options?: Record<string, unknown> | undefined;
  /**
   * Most tool calls in the whole loop; calls beyond it get a `TOOL_BUDGET_EXCEEDED` error result
   * and the loop asks the model to finish.
   */
  maxToolCalls?: number | undefined;
  /** Most calls per tool (one number for all, or per tool name); calls beyond it get a `TOOL_BUDGET_EXCEEDED` error result. */
  maxCallsPerTool?: number | Record<string, number> | undefined;
  /**
   * How often the same call (same tool, same arguments) may run; repeats beyond it are answered
   * with a `REPEATED_CALL` error result (default 3).
   */
  maxRepeatedCalls?: number | undefined;
  /** A wall-clock budget in ms for the whole loop. */
  timeBudgetMs?: number | undefined;
  /** When a limit stops the loop, make one last model call without tools asking for a final answer (the text, or `true` for a default prompt). */
  finalSummary?: boolean | string | undefined;
  /**
   * Called as soon as the model's turn is complete (in {@link streamToolLoop}, tools whose
   * arguments were complete earlier may already be running).
   */
  onResponse?: ((response: LLMResponse, iteration: number) => void) | undefined;
  /** Called after each model turn and its tool calls. */
  onTurn?: ((turn: LoopTurn) => void) | undefined;
  /** Called for each tool result. */
  onToolResult?: ((result: ToolResult, call: ToolCall) => void) | undefined;
  /** Receives tool progress. */
  onProgress?: ((progress: CallProgress) => void) | undefined;
  /**
   * Most characters of arguments one streamed tool call may send (default 1,000,000): beyond it
   * the model stream is stopped and the loop fails with `PROVIDER_FAILED`; the call never runs.
   */
  maxArgumentChars?: number | undefined;
}

/** What {@link runToolLoop} resolves to. */
export interface ToolLoopResult {
  /** The last text the model produced. */
  content: string;
  /** The number of model calls made. */
  iterations: number;
  /** The whole conversation: the input messages, then every assistant and tool message. */
  messages: Message[];
  /** Why the loop stopped (`'return_direct'`: a `returnDirect` tool's result is the answer). */
  stopReason: LoopStopReason;
  /**
   * Set when a `returnDirect` tool ended the loop: the tool, its call and its result (`content` is
   * the result's text). The first such call of the batch, in call order, that did not fail.
   */
  returnedDirect?: { readonly tool: string; readonly callId: string; readonly result: ToolResult };
  /** Tool calls made, all turns together. */
  toolCalls: number;
  /** Token usage summed over the turns, when the provider reports it. */
  usage?: LLMUsage;
}

/**
 * One event of {@link streamToolLoop}. `iteration` is the model turn (1 for the first).
 * Tool calls carry what the model sent; results are the toolkit's (preset values redacted).
 */
export type LoopEvent =
  | { readonly type: 'text_delta'; readonly iteration: number; readonly text: string }
  | { readonly type: 'tool_call_started'; readonly iteration: number; readonly callId: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly iteration: number; readonly callId: string; readonly delta: string }
  | { readonly type: 'tool_progress'; readonly iteration: number; readonly progress: CallProgress }
  | { readonly type: 'tool_result'; readonly iteration: number; readonly call: ToolCall; readonly result: ToolResult }
  | { readonly type: 'step_finished'; readonly iteration: number; readonly response: LLMResponse; readonly results: readonly ToolResult[] }
  | { readonly type: 'final'; readonly result: ToolLoopResult };
