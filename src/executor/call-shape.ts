import type { ToolResult } from '../common/tool-types';
import { redaction, toolName, type CallState } from './call-state';
import { toToolResult, truncateText } from './convert';
import type { ExecutorCore } from './executor-core';
import { redactedToolResult, redactResult } from './redact';
import type { ToolEntry } from './tool-entry';

/** A copy of a (redacted) result answering call `callId` of `entry`, cut to `maxResultChars`. */
export function answerFor(produced: ToolResult, entry: ToolEntry, core: ExecutorCore, callId: string): ToolResult {
  const result: ToolResult = { ...produced, toolCallId: callId, name: entry.name };
  const max = entry.behaviour.maxResultChars ?? core.maxResultChars;
  if (max !== undefined && result.forLLM.length > max) result.forLLM = truncateText(result.forLLM, max);
  return result;
}

/**
 * @internal What the tool returned, as the call's answer: converted (text as is, anything else as
 * JSON), preset values redacted, cut to `maxResultChars`. A string takes the short way (one object).
 */
export function successOf(run: CallState, entry: ToolEntry, value: unknown): ToolResult {
  const scrub = redaction(run);
  if (typeof value !== 'string') return answerFor(scrub ? redactedToolResult(value, scrub) : toToolResult(value), entry, run.core, run.call.id);
  let text = scrub ? scrub(value) : value;
  const max = entry.behaviour.maxResultChars ?? run.core.maxResultChars;
  if (max !== undefined && text.length > max) text = truncateText(text, max);
  return { forLLM: text, silent: false, isError: false, async: false, toolCallId: run.call.id, name: entry.name };
}

/** @internal A copy of `produced` (a hook's result) answering the call: preset values redacted, then `maxResultChars` applied. */
export function shapeResult(run: CallState, entry: ToolEntry, produced: ToolResult): ToolResult {
  const scrub = redaction(run);
  return answerFor(scrub ? redactResult(produced, scrub) : produced, entry, run.core, run.call.id);
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
