import { annotationsProblem, base64Bytes, partProblem } from '../../model/content-check';
import { partText } from '../../model/content-text';
import type { ContentAnnotations, ToolContent } from '../../model/tool-content';
import { truncateText } from '../../executor/call/convert';

/**
 * @internal How much content one imported result may hold (see `McpImportOptions`).
 *
 * @example
 * importContent(result.content, { maxParts: 100, maxBytes: 10 * 1024 * 1024 });
 */
export interface ContentLimits {
  /** The most parts kept; the rest are dropped with a note saying how many. */
  readonly maxParts: number;
  /** The most bytes kept: decoded bytes of binary parts plus characters of text. */
  readonly maxBytes: number;
}

function annotationsOf(block: Record<string, unknown>): { annotations?: ContentAnnotations } {
  const a = block.annotations;
  if (typeof a !== 'object' || a === null) return {};
  const { audience, priority, lastModified } = a as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (audience !== undefined) out.audience = Array.isArray(audience) ? [...(audience as unknown[])] : audience;
  if (priority !== undefined) out.priority = priority;
  if (lastModified !== undefined) out.lastModified = lastModified;
  return Object.keys(out).length ? { annotations: out as ContentAnnotations } : {};
}

function pick(block: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (block[key] !== undefined) out[key] = block[key];
  return out;
}

/** The MCP fields of a block of a known kind (no `_meta`, no `icons`), or the block as it is. */
function fieldsOf(block: Record<string, unknown>): unknown {
  const annotations = annotationsOf(block);
  switch (block.type) {
    case 'text':
      return { ...pick(block, ['type', 'text']), ...annotations };
    case 'image':
    case 'audio':
      return { ...pick(block, ['type', 'data', 'mimeType']), ...annotations };
    case 'resource': {
      const resource = block.resource;
      const inner = typeof resource === 'object' && resource !== null ? pick(resource as Record<string, unknown>, ['uri', 'mimeType', 'text', 'blob']) : resource;
      return { type: 'resource', resource: inner, ...annotations };
    }
    case 'resource_link':
      return { ...pick(block, ['type', 'uri', 'name', 'title', 'description', 'mimeType', 'size']), ...annotations };
    default:
      return block;
  }
}

/** Bytes a part holds: decoded bytes of its binary data, characters of its text, 0 for a link. */
function sizeOf(part: ToolContent): number {
  switch (part.type) {
    case 'text':
      return part.text.length;
    case 'image':
    case 'audio':
      return base64Bytes(part.data);
    case 'resource':
      return 'blob' in part.resource ? base64Bytes(part.resource.blob) : part.resource.text.length;
    case 'resource_link':
      return 0;
  }
}

/**
 * The decoded size of a binary block whose fields a placeholder can name (a string `mimeType` for
 * image and audio, a string `uri` for a blob resource), read without checking its base64: a part too
 * large to keep is dropped before its data is scanned.
 */
function binarySize(fields: unknown): number | undefined {
  if (typeof fields !== 'object' || fields === null) return undefined;
  const f = fields as { type?: unknown; data?: unknown; mimeType?: unknown; resource?: { uri?: unknown; blob?: unknown } };
  if ((f.type === 'image' || f.type === 'audio') && typeof f.data === 'string' && typeof f.mimeType === 'string') return base64Bytes(f.data);
  const r = f.resource;
  if (f.type === 'resource' && typeof r === 'object' && r !== null && typeof r.blob === 'string' && typeof r.uri === 'string') return base64Bytes(r.blob);
  return undefined;
}

/** `part` cut to `room` bytes: a text is cut (head and tail kept), anything binary becomes a note. */
function cutTo(part: ToolContent, room: number, maxBytes: number): ToolContent {
  const annotations = part.annotations !== undefined && annotationsProblem(part.annotations) === undefined ? { annotations: part.annotations } : {};
  if (part.type === 'text') return { ...part, text: truncateText(part.text, room) };
  if (part.type === 'resource' && 'text' in part.resource) return { ...part, resource: { ...part.resource, text: truncateText(part.resource.text, room) } };
  return { type: 'text', text: `${partText(part)} dropped: the result passes the import's maxContentBytes (${maxBytes})`, ...annotations };
}

/**
 * @internal The content blocks of a remote `tools/call` result as content parts, without loss and
 * within bounds: each block's MCP fields and annotations are kept (`_meta` and icons are not); a
 * malformed block or one of a kind toolwright does not know becomes a text note naming the fault;
 * parts past `maxParts` are dropped with a note saying how many; past `maxBytes`, texts are cut and
 * binary parts replaced by a note (the placeholder of the part and the limit).
 *
 * @example
 * importContent([{ type: 'image', data: png, mimeType: 'image/png', annotations: { audience: ['user'] } }], limits);
 * // [{ type: 'image', data: png, mimeType: 'image/png', annotations: { audience: ['user'] } }]
 */
export function importContent(blocks: readonly unknown[], limits: ContentLimits): ToolContent[] {
  const parts: ToolContent[] = [];
  let used = 0;
  const taken = Math.min(blocks.length, limits.maxParts);
  for (let i = 0; i < taken; i++) {
    const block: unknown = blocks[i];
    const fields = typeof block === 'object' && block !== null && !Array.isArray(block) ? fieldsOf(block as Record<string, unknown>) : block;
    const room = Math.max(0, limits.maxBytes - used);
    const binary = binarySize(fields);
    if (binary !== undefined && binary > room) {
      const dropped = cutTo(fields as ToolContent, room, limits.maxBytes);
      parts.push(dropped);
      used += sizeOf(dropped);
      continue;
    }
    const problem = partProblem(fields);
    if (problem !== undefined) {
      parts.push({ type: 'text', text: `[content part ${i + 1} of the remote result dropped: ${problem}]` });
      continue;
    }
    const part = fields as ToolContent;
    const size = sizeOf(part);
    const kept = size <= room ? part : cutTo(part, room, limits.maxBytes);
    parts.push(kept);
    used += kept === part ? size : sizeOf(kept);
  }
  if (blocks.length > taken) {
    parts.push({ type: 'text', text: `[${blocks.length - taken} more content parts dropped: the remote result had ${blocks.length}, the import's maxContentParts is ${limits.maxParts}]` });
  }
  return parts;
}
