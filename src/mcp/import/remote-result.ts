import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { contentText, resultTexts } from '../../model/content-text';
import { errorResult, toolResult } from '../../model/results';
import type { ToolContent } from '../../model/tool-content';
import type { ToolResult } from '../../model/tool-types';
import { truncateText } from '../../executor/call/convert';
import { importContent, type ContentLimits } from './import-content';
import { MCP_IMPORT_LIMITS } from './mcp-import-options';

const DEFAULT_LIMITS: ContentLimits = { maxParts: MCP_IMPORT_LIMITS.maxContentParts, maxBytes: MCP_IMPORT_LIMITS.maxContentBytes };

/** A result of an old (2024-10-07) server: `{ toolResult }` instead of `content`. */
interface LegacyToolResult {
  toolResult: unknown;
}

/**
 * `structuredContent` (or an old server's `toolResult`) within `maxBytes` characters of JSON: the
 * value when its JSON text fits, else a note for the model naming its size and the limit (the
 * value is dropped: cut JSON is no data, as half an image is no image). Measured apart from the
 * content blocks: a server that follows MCP sends the same JSON as a text block too.
 */
function boundedStructured(value: unknown, maxBytes: number): { readonly value?: unknown; readonly json?: string; readonly note?: string } {
  if (value === undefined) return {};
  const json = JSON.stringify(value) ?? String(value);
  if (json.length <= maxBytes) return { value, json };
  return { note: `[structuredContent of ${json.length} characters of JSON dropped: the result passes the import's maxContentBytes (${maxBytes})]` };
}

/** True when the parts say more than their text: a part that is not text, or annotations. */
function rich(parts: readonly ToolContent[]): boolean {
  return parts.some((part) => part.type !== 'text' || part.annotations !== undefined);
}

/**
 * @internal A remote MCP `tools/call` result as a {@link ToolResult}, without loss: its content
 * blocks become content parts (bounded by `limits`, see `importContent`) with their annotations;
 * `forLLM` is the text of the parts meant for the model (a part for the user only never reaches
 * it; images, audio and resources as short placeholders), `forUser` that of the parts meant for
 * the user; `structuredContent` is `data`; `isError` an error result with the model's text. A
 * result of plain text without annotations stays a text result.
 *
 * @example
 * fromCallToolResult({ content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } });
 * // { forLLM: 'ok', data: { n: 1 }, isError: false, … }
 */
export function fromCallToolResult(result: CallToolResult | LegacyToolResult, limits: ContentLimits = DEFAULT_LIMITS): ToolResult {
  if (!('content' in result) && 'toolResult' in result) {
    const value = result.toolResult;
    if (typeof value === 'string') return toolResult(truncateText(value, limits.maxBytes));
    const legacy = boundedStructured(value, limits.maxBytes);
    return legacy.note !== undefined ? toolResult(legacy.note) : toolResult(legacy.json ?? '', legacy.value);
  }
  const call = result as CallToolResult;
  const parts = importContent(Array.isArray(call.content) ? call.content : [], limits);
  if (call.isError) return errorResult(contentText(parts, 'assistant') ?? 'The remote tool failed without a message.');
  const { value: structured, json, note } = boundedStructured(call.structuredContent, limits.maxBytes);
  if (note !== undefined) parts.push({ type: 'text', text: note });
  if (parts.length === 0) return toolResult(json ?? '(no content)', structured);
  const { forLLM, forUser, silent } = resultTexts(parts);
  if (!rich(parts)) return toolResult(forLLM, structured);
  const imported: ToolResult = { forLLM, silent, isError: false, async: false, content: Object.freeze(parts) };
  if (forUser !== undefined) imported.forUser = forUser;
  if (structured !== undefined) imported.data = structured;
  return imported;
}
