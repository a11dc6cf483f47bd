import { modelImages } from '../../common/content-text';
import type { ToolProgress, ToolResult } from '../../common/tool-types';
import type { CallProgress } from '../../executor/executor-core';

/**
 * A preliminary output of an adapted tool: one progress report of the running call
 * (`ToolCallContext.emit` in the tool), streamed by `streamText` as a `tool-result` part with
 * `preliminary: true`. The model never sees it.
 *
 * @example
 * for await (const part of result.fullStream) {
 *   if (part.type === 'tool-result' && part.preliminary && isAiSdkToolProgress(part.output)) ui.progress(part.output.message);
 * }
 */
export interface AiSdkToolProgress extends ToolProgress {
  /** Tells a progress report from the final `ToolResult`. */
  readonly type: 'tool-progress';
}

/**
 * What an adapted tool outputs: its `ToolResult` (the final output; the model gets its `forLLM`
 * through `toModelOutput`, the application keeps `forUser` and `data`), or before it, with
 * preliminary results on, its progress reports.
 *
 * @example
 * const output = result.toolResults[0]?.output;
 * if (output !== undefined && !isAiSdkToolProgress(output)) show(output.forUser ?? output.forLLM);
 */
export type AiSdkToolOutput = ToolResult | AiSdkToolProgress;

/**
 * True when an adapted tool's output is a progress report, not the final `ToolResult`.
 *
 * @example
 * if (part.preliminary && isAiSdkToolProgress(part.output)) console.log(part.output.progress, part.output.total);
 */
export function isAiSdkToolProgress(output: unknown): output is AiSdkToolProgress {
  return typeof output === 'object' && output !== null && (output as { type?: unknown }).type === 'tool-progress';
}

/**
 * The error an adapted tool throws for an error result (`isError: true`), so that the AI SDK
 * records a `tool-error` part: the SDK sends the model the error's `message`, which is
 * toolwright's `forLLM` text (e.g. the field-by-field validation message), and the
 * application finds the whole `ToolResult` on `result` (`error.code`, `forUser`).
 *
 * @example
 * for (const part of step.content) {
 *   if (part.type === 'tool-error' && AiSdkToolError.is(part.error)) console.log(part.error.code, part.error.result.forUser);
 * }
 */
export class AiSdkToolError extends Error {
  /** The error result the call produced. */
  readonly result: ToolResult;
  /** The result's error code (`INVALID_ARGUMENTS`, `TIMEOUT`, a tool's own code…), or `TOOL_ERROR` when it has none. */
  readonly code: string;

  constructor(result: ToolResult) {
    super(result.forLLM);
    this.name = 'AiSdkToolError';
    this.result = result;
    this.code = result.error?.code ?? 'TOOL_ERROR';
  }

  /** True when `value` is an {@link AiSdkToolError} (from any copy of toolwright). */
  static is(value: unknown): value is AiSdkToolError {
    return value instanceof Error && value.name === 'AiSdkToolError' && typeof (value as { result?: unknown }).result === 'object';
  }
}

/** @internal The final output of a call: the result itself, or the error the SDK turns into a `tool-error`. */
export function finalOutput(result: ToolResult): ToolResult {
  if (result.isError) throw new AiSdkToolError(result);
  return result;
}

/** @internal A progress report as a preliminary output (the call id and tool name are on the SDK's part already). */
export function progressOutput(progress: CallProgress): AiSdkToolProgress {
  const { callId: _callId, tool: _tool, ...report } = progress;
  return { ...report, type: 'tool-progress' };
}

/** The text output of the AI SDK's tool-result parts (`{ type: 'text', value }` in `ai` 5 and 6). */
interface TextOutput {
  type: 'text';
  value: string;
}

/**
 * The content output of the AI SDK's tool-result parts: text, then images (`media` in `ai` 5,
 * `image-data` in `ai` 6, which still reads `media` but marks it deprecated).
 */
interface ContentOutput {
  type: 'content';
  value: ({ type: 'text'; text: string } | { type: 'media' | 'image-data'; data: string; mediaType: string })[];
}

/**
 * @internal `toModelOutput` for both majors: `ai` 6 calls it with `{ toolCallId, input, output }`,
 * `ai` 5 with the output itself. The model gets the result's `forLLM`, followed by the images of
 * its content parts meant for the model (as content output; the SDK's provider decides what it can
 * send); an output that is not a `ToolResult` (rebuilt from stored UI messages by other code) goes
 * as its JSON text.
 */
export function modelOutput(argument: unknown): TextOutput | ContentOutput {
  const record = typeof argument === 'object' && argument !== null ? (argument as Record<string, unknown>) : undefined;
  const v6 = record !== undefined && 'output' in record && 'toolCallId' in record && !('forLLM' in record);
  const output = v6 ? record.output : argument;
  const result = typeof output === 'object' && output !== null ? (output as Partial<ToolResult>) : undefined;
  const forLLM = result?.forLLM;
  const text = typeof forLLM === 'string' ? forLLM : typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
  const images = typeof forLLM === 'string' && Array.isArray(result?.content) ? modelImages(result.content) : [];
  if (images.length === 0) return { type: 'text', value: text };
  const media: 'image-data' | 'media' = v6 ? 'image-data' : 'media';
  return { type: 'content', value: [{ type: 'text', text }, ...images.map((image) => ({ type: media, data: image.data, mediaType: image.mimeType }))] };
}
