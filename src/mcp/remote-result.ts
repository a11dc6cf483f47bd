import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { contentText, contentViews } from '../common/content-text';
import { errorResult, toolResult } from '../common/results';
import type { ToolContent } from '../common/tool-content';
import type { ToolResult } from '../common/tool-types';
import { importContent, type ContentLimits } from './import-content';
import { MCP_IMPORT_LIMITS } from './mcp-import-options';

const DEFAULT_LIMITS: ContentLimits = { maxParts: MCP_IMPORT_LIMITS.maxContentParts, maxBytes: MCP_IMPORT_LIMITS.maxContentBytes };

/** A result of an old (2024-10-07) server: `{ toolResult }` instead of `content`. */
interface LegacyToolResult {
  toolResult: unknown;
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
    return typeof value === 'string' ? toolResult(value) : toolResult(JSON.stringify(value) ?? String(value), value);
  }
  const call = result as CallToolResult;
  const parts = importContent(Array.isArray(call.content) ? call.content : [], limits);
  if (call.isError) return errorResult(contentText(parts, 'assistant') ?? 'The remote tool failed without a message.');
  const structured = call.structuredContent;
  if (parts.length === 0) return toolResult(structured !== undefined ? JSON.stringify(structured) : '(no content)', structured);
  const { forLLM, forUser, silent } = contentViews(parts);
  if (!rich(parts)) return toolResult(forLLM, structured);
  const imported: ToolResult = { forLLM, silent, isError: false, async: false, content: Object.freeze(parts) };
  if (forUser !== undefined) imported.forUser = forUser;
  if (structured !== undefined) imported.data = structured;
  return imported;
}
