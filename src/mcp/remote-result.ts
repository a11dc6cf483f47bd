import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, toolResult } from '../common/results';
import type { ToolResult } from '../common/tool-types';

/** Bytes a base64 string decodes to. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** One content block as text a model can read; binary content is described, not inlined. */
function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? ` - ${block.description}` : ''}]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string') return `[resource ${resource.uri}]\n${resource.text}`;
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? `, ${base64Bytes(resource.blob)} bytes` : '';
      return `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}${blob}]`;
    }
    default:
      return `[${(block as { type?: unknown }).type === undefined ? 'unknown' : String((block as { type?: unknown }).type)} content]`;
  }
}

/** A result of an old (2024-10-07) server: `{ toolResult }` instead of `content`. */
interface LegacyToolResult {
  toolResult: unknown;
}

/**
 * @internal A remote MCP `tools/call` result as a {@link ToolResult}: text blocks (and descriptions of
 * images, audio and resources) joined as `forLLM`; `structuredContent` as `data` (else the
 * non-text blocks, so an app can still render them); `isError` as an error result.
 *
 * @example
 * fromCallToolResult({ content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } });
 * // { forLLM: 'ok', data: { n: 1 }, isError: false, … }
 */
export function fromCallToolResult(result: CallToolResult | LegacyToolResult): ToolResult {
  if (!('content' in result) && 'toolResult' in result) {
    const value = result.toolResult;
    return typeof value === 'string' ? toolResult(value) : toolResult(JSON.stringify(value) ?? String(value), value);
  }
  const call = result as CallToolResult;
  const blocks = call.content ?? [];
  let text = '';
  let binary = false;
  for (const block of blocks) {
    if (block.type !== 'text') binary = true;
    const part = describeContent(block);
    text = text ? `${text}\n${part}` : part;
  }
  if (call.isError) return errorResult(text || 'The remote tool failed without a message.');
  const structured = call.structuredContent;
  if (!text) text = structured !== undefined ? JSON.stringify(structured) : '(no content)';
  const data: unknown = structured ?? (binary ? { content: blocks } : undefined);
  return toolResult(text, data);
}
