import { isPlainObject } from '../utils/plain-object';
import { describeThrown } from '../errors/toolkit-error';
import { boundInput } from '../utils/quote-input';
import type { ToolCall } from './tool-types';

/** The longest JSON parse error quoted (V8 quotes a piece of the input). */
const MAX_PARSE_ERROR_CHARS = 200;

/** @internal Why a call's arguments are not one JSON object (see {@link parseCallArguments}). */
export class MalformedArguments {
  /**
   * @param reason Ends the sentence "Arguments for tool 'x' …", e.g. `must be a JSON object, got an array`.
   * @param invalidJson The text is not JSON at all (rather than JSON of the wrong type).
   */
  constructor(
    readonly reason: string,
    readonly invalidJson = false,
  ) {}
}

/**
 * @internal The one parser of `ToolCall.arguments` (the executor, meta tools, the loop and the
 * provider adapters use it): the model's JSON text parsed, or an object argument copied (it
 * belongs to the caller), so the result is always the caller's to change. An empty or blank
 * text means "no arguments", as some models send for parameterless tools.
 *
 * @example
 * parseCallArguments('{"city":"Paris"}'); // { city: 'Paris' }
 * parseCallArguments('[1]');              // MalformedArguments { reason: 'must be a JSON object, got an array' }
 */
export function parseCallArguments(raw: ToolCall['arguments']): Record<string, unknown> | MalformedArguments {
  if (typeof raw !== 'string') return isPlainObject(raw) ? { ...raw } : notAnObject(raw);
  // `{}` is what models send to parameterless tools: skip the parser for it
  if (raw === '{}') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    if (raw.trim() === '') return {};
    return new MalformedArguments(`are not valid JSON (${boundInput(describeThrown(e), MAX_PARSE_ERROR_CHARS)})`, true);
  }
  return isPlainObject(parsed) ? parsed : notAnObject(parsed);
}

function notAnObject(value: unknown): MalformedArguments {
  return new MalformedArguments(`must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
}
