import { base64Bytes } from './content-check';
import { boundInput } from './quote-input';
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
 * @internal The text views of content parts: `forLLM` from the parts meant for the model, `forUser`
 * from those meant for the user when that text differs (else `undefined`: the user sees `forLLM`),
 * and `silent` when no part is meant for the user. A result none of whose parts is for the model
 * says so, so the model never gets an empty answer.
 */
export function contentViews(parts: readonly ToolContent[]): { forLLM: string; forUser: string | undefined; silent: boolean } {
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
