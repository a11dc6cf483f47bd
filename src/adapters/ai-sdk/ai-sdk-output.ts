import { modelImages } from '../../model/content-text';
import type { ToolProgress, ToolResult } from '../../model/tool-types';
import type { CallProgress } from '../../executor/executor-parts';

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

  /**
   * The model's text, without the `AiSdkToolError: ` prefix of `Error.prototype.toString`: `ai` 7
   * sends the model a tool error's `toString()` (5 and 6 its `message`), and the model must read
   * toolwright's `forLLM` alike on every major.
   */
  override toString(): string {
    return this.message;
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

/** The majors of the `ai` package the adapter supports. */
export type AiMajor = 5 | 6 | 7;

/** The text output of the AI SDK's tool-result parts (`{ type: 'text', value }` in `ai` 5, 6 and 7). */
interface TextOutput {
  type: 'text';
  value: string;
}

/** An image of a content output as each major takes it: `media` in `ai` 5, `image-data` in 6, `file` in 7. */
type ImageOutput =
  | { type: 'media' | 'image-data'; data: string; mediaType: string }
  | { type: 'file'; mediaType: string; data: { type: 'data'; data: string } };

/** The content output of the AI SDK's tool-result parts: text, then images. */
interface ContentOutput {
  type: 'content';
  value: ({ type: 'text'; text: string } | ImageOutput)[];
}

/**
 * The image part of each major: `ai` 6 still reads `media` but marks it deprecated, and `ai` 7
 * reads `image-data` but prints a deprecation warning (`file` with `mediaType` replaces both).
 */
const IMAGE_PART: Readonly<Record<AiMajor, (data: string, mediaType: string) => ImageOutput>> = {
  5: (data, mediaType) => ({ type: 'media', data, mediaType }),
  6: (data, mediaType) => ({ type: 'image-data', data, mediaType }),
  7: (data, mediaType) => ({ type: 'file', mediaType, data: { type: 'data', data } }),
};

/**
 * @internal `toModelOutput` for one major: `ai` 6 and 7 call it with `{ toolCallId, input, output }`,
 * `ai` 5 with the output itself. The model gets the result's `forLLM`, followed by the images of
 * its content parts meant for the model (as content output; the SDK's provider decides what it can
 * send); an output that is not a `ToolResult` (rebuilt from stored UI messages by other code) goes
 * as its JSON text.
 */
export function modelOutputOf(major: AiMajor): (argument: unknown) => TextOutput | ContentOutput {
  return MODEL_OUTPUT[major];
}

function makeModelOutput(major: AiMajor): (argument: unknown) => TextOutput | ContentOutput {
  const image = IMAGE_PART[major];
  return (argument) => {
    const record = typeof argument === 'object' && argument !== null ? (argument as Record<string, unknown>) : undefined;
    const wrapped = major !== 5 && record !== undefined && 'output' in record && 'toolCallId' in record && !('forLLM' in record);
    const output = wrapped ? record.output : argument;
    const result = typeof output === 'object' && output !== null ? (output as Partial<ToolResult>) : undefined;
    const forLLM = result?.forLLM;
    const text = typeof forLLM === 'string' ? forLLM : typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
    const images = typeof forLLM === 'string' && Array.isArray(result?.content) ? modelImages(result.content) : [];
    if (images.length === 0) return { type: 'text', value: text };
    return { type: 'content', value: [{ type: 'text', text }, ...images.map((part) => image(part.data, part.mimeType))] };
  };
}

const MODEL_OUTPUT: Readonly<Record<AiMajor, (argument: unknown) => TextOutput | ContentOutput>> = { 5: makeModelOutput(5), 6: makeModelOutput(6), 7: makeModelOutput(7) };
