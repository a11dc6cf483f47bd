import { contentProblem } from '../../model/content-check';
import { isMadeContent } from '../../model/content-results';
import type { ToolContent } from '../../model/tool-content';
import type { ToolResult } from '../../model/tool-types';
import { redaction, toolName, type CallState } from './call-state';
import { toToolResult, truncateContent, truncateText } from './convert';
import type { ExecutorParts } from '../executor-parts';
import { redactedToolResult, redactResult } from '../presets/redact';
import type { ToolEntry } from '../tool-entry';

/** `text` cut to the tool's `maxResultChars` (or the toolkit's), when it is longer. */
function capped(text: string, entry: ToolEntry, parts: ExecutorParts): string {
  const max = entry.behaviour.maxResultChars ?? parts.maxResultChars;
  return max !== undefined && text.length > max ? truncateText(text, max) : text;
}

/** Why a result's content parts are malformed, or `undefined` (parts made by the content helpers were checked then). */
function contentFault(content: readonly ToolContent[]): string | undefined {
  return Array.isArray(content) && content.every(isMadeContent) ? undefined : contentProblem(content);
}

/**
 * A copy of a (redacted) result answering call `callId` of `entry`, cut to `maxResultChars` (its
 * text parts too, see `truncateContent`); an `INVALID_CONTENT` error result when its content parts
 * are malformed (the tool's fault, named by part: never served half-valid).
 */
export function answerFor(produced: ToolResult, entry: ToolEntry, parts: ExecutorParts, callId: string): ToolResult {
  const { content } = produced;
  if (content === undefined) return { ...produced, forLLM: capped(produced.forLLM, entry, parts), toolCallId: callId, name: entry.name };
  const fault = contentFault(content);
  if (fault !== undefined) {
    const message = `Tool '${entry.name}' returned malformed content: ${fault}. This is a fault of the tool, not of the call.`;
    return { forLLM: message, silent: false, isError: true, async: false, error: { code: 'INVALID_CONTENT', message }, toolCallId: callId, name: entry.name };
  }
  const max = entry.behaviour.maxResultChars ?? parts.maxResultChars;
  return {
    ...produced,
    forLLM: capped(produced.forLLM, entry, parts),
    ...(max !== undefined ? { content: truncateContent(content, max) } : {}),
    toolCallId: callId,
    name: entry.name,
  };
}

/**
 * @internal What the tool returned, as the call's answer: converted (text as is, anything else as
 * JSON), preset values redacted, cut to `maxResultChars`. A string takes the short way (one object).
 */
export function successOf(run: CallState, entry: ToolEntry, value: unknown): ToolResult {
  const scrub = redaction(run);
  if (typeof value !== 'string') return answerFor(scrub ? redactedToolResult(value, scrub) : toToolResult(value), entry, run.parts, run.call.id);
  const text = capped(scrub ? scrub(value) : value, entry, run.parts);
  return { forLLM: text, silent: false, isError: false, async: false, toolCallId: run.call.id, name: entry.name };
}

/** @internal A copy of `produced` (a hook's result) answering the call: preset values redacted, then `maxResultChars` applied. */
export function shapeResult(run: CallState, entry: ToolEntry, produced: ToolResult): ToolResult {
  const scrub = redaction(run);
  return answerFor(scrub ? redactResult(produced, scrub) : produced, entry, run.parts, run.call.id);
}

/** @internal An error answer of the call (its message redacted). */
export function errorAnswer(run: CallState, code: string, message: string): ToolResult {
  const scrub = redaction(run);
  const text = scrub ? scrub(message) : message;
  return {
    forLLM: text,
    silent: false,
    isError: true,
    async: false,
    error: { code, message: text },
    toolCallId: run.call.id,
    name: toolName(run),
  };
}
