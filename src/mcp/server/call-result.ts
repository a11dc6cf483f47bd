import { isPlainObject } from '../../utils/plain-object';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../model/tool-types';
import { toContentBlock } from './content-blocks';
import type { OutputShape } from '../shared/mcp-tool-options';

type TextContent = { type: 'text'; text: string; annotations?: { audience?: ('user' | 'assistant')[] } };

/**
 * The content blocks of a result: its content parts when it has some (each with its annotations),
 * else `forLLM` as text, and `forUser` (when it differs) as a second text block for the user only.
 */
function contentOf(result: ToolResult): ContentBlock[] {
  if (!result.isError && result.content !== undefined && result.content.length > 0) return result.content.map(toContentBlock);
  const content: TextContent[] = [{ type: 'text', text: result.forLLM }];
  if (result.forUser !== undefined && result.forUser !== result.forLLM && !result.silent) {
    content[0].annotations = { audience: ['assistant'] };
    content.push({ type: 'text', text: result.forUser, annotations: { audience: ['user'] } });
  }
  return content;
}

/** Parses `text` when it looks like JSON; `undefined` otherwise. */
function parseJsonText(text: string): unknown {
  const first = text.charCodeAt(0);
  // '{' '[' only: a structured value is never a bare scalar in text we produced ourselves
  if (first !== 0x7b && first !== 0x5b) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON copy of `value`: `structuredContent` must survive JSON (Dates as strings, no class instances). */
function toJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as unknown;
}

/**
 * @internal A toolkit {@link ToolResult} as an MCP `tools/call` result: its content parts as MCP
 * content (image, audio, resource, resource_link, text, with their annotations); a text-only
 * result's `forLLM` as text content and `forUser` (when it differs) as a second text block for the
 * user's eyes only; errors as `isError` (their text only), and
 * the structured value as `structuredContent` when the tool declares an output schema (a value
 * that cannot be served under that schema becomes an `isError` result saying so).
 *
 * @example
 * toCallToolResult(toolResult('3', 3), { schema: { type: 'object', properties: { result: { type: 'number' } } }, wrap: true }, 'add');
 * // { content: [{ type: 'text', text: '3' }], structuredContent: { result: 3 } }
 */
export function toCallToolResult(result: ToolResult, shape: OutputShape | undefined, toolName: string): CallToolResult {
  const content = contentOf(result);
  if (result.isError) return { content, isError: true };
  if (!shape) return { content };
  let value = result.data !== undefined ? toJson(result.data) : parseJsonText(result.forLLM);
  if (value === undefined && shape.wrap) value = null;
  if (shape.wrap) return { content, structuredContent: { result: value } };
  if (isPlainObject(value)) return { content, structuredContent: value };
  return {
    content: [
      {
        type: 'text',
        text:
          `Tool '${toolName}' declares an output schema but produced no structured object ` +
          `(its text result was: ${result.forLLM.length > 500 ? `${result.forLLM.slice(0, 500)}…` : result.forLLM}).`,
      },
    ],
    isError: true,
  };
}

/** @internal An `isError` result carrying `message`. */
export function errorCallResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** @internal The answer to a call that threw inside toolwright's MCP glue (the toolkit call itself never rejects). */
export function failedCallResult(name: string, error: unknown): CallToolResult {
  return errorCallResult(`Tool '${name}' failed: ${error instanceof Error ? error.message : String(error)}`);
}
