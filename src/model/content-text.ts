import { base64Bytes } from './content-check';
import { boundInput } from '../utils/quote-input';
import type { ContentAudience, ImageContent, ToolContent } from './tool-content';

/** The longest URI, name or description a placeholder quotes. */
const MAX_PLACEHOLDER_FIELD = 200;

/** @internal True when `part` is for `who`: its audience is unset or lists `who`. */
export function isFor(part: ToolContent, who: ContentAudience): boolean {
  const audience = part.annotations?.audience;
  return audience === undefined || audience.includes(who);
}

function mime(mimeType: string | undefined): string {
  return mimeType ? ` (${boundInput(mimeType, MAX_PLACEHOLDER_FIELD)})` : '';
}

/**
 * @internal One part as text: text as it is, an embedded text resource as a header line and its
 * text, everything binary as a short bounded placeholder (`[image: image/png, 4033 bytes]`).
 */
export function partText(part: ToolContent): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type}: ${boundInput(part.mimeType, MAX_PLACEHOLDER_FIELD)}, ${base64Bytes(part.data)} bytes]`;
    case 'resource_link':
      return (
        `[resource link: ${boundInput(part.name, MAX_PLACEHOLDER_FIELD)} <${boundInput(part.uri, MAX_PLACEHOLDER_FIELD)}>${mime(part.mimeType)}` +
        `${part.description ? ` - ${boundInput(part.description, MAX_PLACEHOLDER_FIELD)}` : ''}]`
      );
    case 'resource': {
      const { resource } = part;
      const uri = boundInput(resource.uri, MAX_PLACEHOLDER_FIELD);
      if ('text' in resource && typeof resource.text === 'string') return `[resource ${uri}${mime(resource.mimeType)}]\n${resource.text}`;
      return `[resource ${uri}${mime(resource.mimeType)}, ${base64Bytes((resource as { blob: string }).blob)} bytes]`;
    }
  }
}

/**
 * @internal The text of the parts meant for `who`, one part per line; `undefined` when none is.
 */
export function contentText(parts: readonly ToolContent[], who: ContentAudience): string | undefined {
  let text: string | undefined;
  for (const part of parts) {
    if (!isFor(part, who)) continue;
    const piece = partText(part);
    text = text === undefined ? piece : `${text}\n${piece}`;
  }
  return text;
}

/**
 * @internal The texts of a result made of content parts: `forLLM` from the parts meant for the model, `forUser`
 * from those meant for the user when that text differs (else `undefined`: the user sees `forLLM`),
 * and `silent` when no part is meant for the user. A result none of whose parts is for the model
 * says so, so the model never gets an empty answer.
 */
export function resultTexts(parts: readonly ToolContent[]): { forLLM: string; forUser: string | undefined; silent: boolean } {
  const model = contentText(parts, 'assistant');
  const user = contentText(parts, 'user');
  const forLLM =
    model ??
    (parts.length === 0 ? '(no content)' : `[${parts.length} content part${parts.length === 1 ? '' : 's'} shown to the user only]`);
  return { forLLM, forUser: user !== undefined && user !== forLLM ? user : undefined, silent: parts.length > 0 && user === undefined };
}

/** @internal The parts of `parts` meant for the model; `undefined` when there are none (or no parts). */
export function modelParts(parts: readonly ToolContent[] | undefined): readonly ToolContent[] | undefined {
  const meant = parts?.filter((part) => isFor(part, 'assistant'));
  return meant !== undefined && meant.length > 0 ? meant : undefined;
}

/** @internal The images among `parts` meant for the model whose media type is one of `mimeTypes` (all when unset). */
export function modelImages(parts: readonly ToolContent[] | undefined, mimeTypes?: ReadonlySet<string>): ImageContent[] {
  const images: ImageContent[] = [];
  for (const part of parts ?? []) {
    if (part.type === 'image' && isFor(part, 'assistant') && (mimeTypes === undefined || mimeTypes.has(part.mimeType.toLowerCase()))) images.push(part);
  }
  return images;
}

/** @internal A binary part meant for the model, in the form the provider adapters send it. */
export interface ModelMedia {
  /** `image` for an image part; `file` for an embedded resource's bytes or an audio part. */
  readonly kind: 'image' | 'file';
  /** The media type, lower-cased. */
  readonly mimeType: string;
  /** The bytes, base64-encoded. */
  readonly data: string;
  /** A file name: the last segment of a resource's URI (bounded), else the kind and an index. */
  readonly filename: string;
}

function fileName(uri: string, fallback: string): string {
  const segment = uri.split(/[/\\]/).pop()?.split(/[?#]/)[0] ?? '';
  return segment === '' ? fallback : boundInput(segment, MAX_PLACEHOLDER_FIELD);
}

/**
 * @internal The images, audio and embedded binary resources among `parts` meant for the model whose
 * media type `accepts` (lower-cased), in order. Embedded text resources are left out: their text
 * is already in the text (`forLLM`).
 */
export function modelMedia(parts: readonly ToolContent[] | undefined, accepts: (mimeType: string) => boolean): ModelMedia[] {
  const media: ModelMedia[] = [];
  for (const part of parts ?? []) {
    if (!isFor(part, 'assistant')) continue;
    const fallback = `${part.type}-${media.length + 1}`;
    if (part.type === 'image' || part.type === 'audio') {
      const mimeType = part.mimeType.toLowerCase();
      if (accepts(mimeType)) media.push({ kind: part.type === 'image' ? 'image' : 'file', mimeType, data: part.data, filename: fallback });
    } else if (part.type === 'resource' && 'blob' in part.resource && typeof part.resource.blob === 'string') {
      const mimeType = (part.resource.mimeType ?? '').toLowerCase();
      if (mimeType !== '' && accepts(mimeType)) {
        media.push({ kind: mimeType.startsWith('image/') ? 'image' : 'file', mimeType, data: part.resource.blob, filename: fileName(part.resource.uri, fallback) });
      }
    }
  }
  return media;
}
