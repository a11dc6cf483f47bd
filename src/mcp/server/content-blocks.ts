import type { Annotations, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ContentAnnotations, ToolContent } from '../../model/tool-content';

function annotationsOut(annotations: ContentAnnotations | undefined): { annotations?: Annotations } {
  if (annotations === undefined) return {};
  const { audience, priority, lastModified } = annotations;
  const out: Annotations = {};
  if (audience !== undefined) out.audience = [...audience];
  if (priority !== undefined) out.priority = priority;
  if (lastModified !== undefined) out.lastModified = lastModified;
  return { annotations: out };
}

/** `value` under `key` when defined (MCP's optional fields are absent, never `undefined`). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * @internal One content part as an MCP content block: the MCP fields of its kind and its
 * annotations, nothing else a tool may have put on it.
 *
 * @example
 * toContentBlock(imageContent(png, 'image/png', { audience: ['user'] }));
 * // { type: 'image', data: png, mimeType: 'image/png', annotations: { audience: ['user'] } }
 */
export function toContentBlock(part: ToolContent): ContentBlock {
  const annotations = annotationsOut(part.annotations);
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...annotations };
    case 'image':
    case 'audio':
      return { type: part.type, data: part.data, mimeType: part.mimeType, ...annotations };
    case 'resource': {
      const { uri, mimeType } = part.resource;
      const body = 'blob' in part.resource ? { blob: part.resource.blob } : { text: part.resource.text };
      return { type: 'resource', resource: { uri, ...optional('mimeType', mimeType), ...body }, ...annotations };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: part.uri,
        name: part.name,
        ...optional('title', part.title),
        ...optional('description', part.description),
        ...optional('mimeType', part.mimeType),
        ...optional('size', part.size),
        ...annotations,
      };
  }
}
