import { ToolkitError } from '../errors';
import { annotationsProblem, contentProblem, partProblem } from './content-check';
import { resultTexts } from './content-text';
import type {
  AudioContent,
  ContentAnnotations,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
  ToolContent,
} from './tool-content';
import type { ToolResult } from './tool-types';

/** Marks parts made (and checked) by the helpers below, in any copy of toolwright. */
const MADE = Symbol.for('toolwright.ToolContent');

/** @internal True when `value` is a part made by one of the content helpers (checked and frozen). */
export function isMadeContent(value: unknown): value is ToolContent {
  return typeof value === 'object' && value !== null && (value as { [MADE]?: unknown })[MADE] === true;
}

function base64Of(data: string | Uint8Array): string {
  return typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

function frozenAnnotations(annotations: ContentAnnotations | undefined, helper: string): ContentAnnotations | undefined {
  if (annotations === undefined) return undefined;
  const problem = annotationsProblem(annotations);
  if (problem !== undefined) throw new ToolkitError('INVALID_CONTENT', `${helper}: ${problem}.`);
  const { audience, priority, lastModified } = annotations;
  return Object.freeze({
    ...(audience !== undefined ? { audience: Object.freeze([...audience]) } : {}),
    ...(priority !== undefined ? { priority } : {}),
    ...(lastModified !== undefined ? { lastModified } : {}),
  });
}

/** Checks a part, marks it as made here and freezes it. */
function made<T extends ToolContent>(part: T, helper: string): T {
  const problem = partProblem(part);
  if (problem !== undefined) throw new ToolkitError('INVALID_CONTENT', `${helper}: ${problem}.`);
  Object.defineProperty(part, MADE, { value: true });
  return Object.freeze(part);
}

function withAnnotations<T extends object>(part: T, annotations: ContentAnnotations | undefined, helper: string): T {
  const frozen = frozenAnnotations(annotations, helper);
  return frozen === undefined ? part : { ...part, annotations: frozen };
}

/**
 * A text part.
 *
 * @example
 * textContent('Rendered the chart below.');
 * textContent('Full log attached for you.', { audience: ['user'] }); // never reaches forLLM
 * @throws ToolkitError `INVALID_CONTENT` when `text` is not a string or the annotations are malformed.
 */
export function textContent(text: string, annotations?: ContentAnnotations): TextContent {
  return made(withAnnotations({ type: 'text' as const, text }, annotations, 'textContent'), 'textContent');
}

/**
 * An image part: base64 text (standard alphabet, padded, without a `data:` prefix) or the bytes.
 *
 * @example
 * imageContent(await fs.promises.readFile('chart.png'), 'image/png');
 * imageContent(pngBase64, 'image/png', { audience: ['user'], priority: 0.8 });
 * @throws ToolkitError `INVALID_CONTENT` when `data` is not base64 (the message names the first
 *   bad character), is empty, or `mimeType` is not an `image/…` media type.
 */
export function imageContent(data: string | Uint8Array, mimeType: string, annotations?: ContentAnnotations): ImageContent {
  return made(withAnnotations({ type: 'image' as const, data: base64Of(data), mimeType }, annotations, 'imageContent'), 'imageContent');
}

/**
 * An audio part: base64 text (standard alphabet, padded) or the bytes.
 *
 * @example
 * audioContent(wavBytes, 'audio/wav');
 * @throws ToolkitError `INVALID_CONTENT` when `data` is not base64, is empty, or `mimeType` is
 *   not an `audio/…` media type.
 */
export function audioContent(data: string | Uint8Array, mimeType: string, annotations?: ContentAnnotations): AudioContent {
  return made(withAnnotations({ type: 'audio' as const, data: base64Of(data), mimeType }, annotations, 'audioContent'), 'audioContent');
}

/**
 * A resource embedded in the result: its URI and its text, or its bytes (`blob`, base64 text or
 * the bytes).
 *
 * @example
 * embeddedResource({ uri: 'file:///reports/q3.csv', mimeType: 'text/csv', text: csv });
 * embeddedResource({ uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: pdfBytes });
 * @throws ToolkitError `INVALID_CONTENT` when the URI is missing, both or neither of `text` and
 *   `blob` are given, or `blob` is not base64.
 */
export function embeddedResource(
  resource:
    | { readonly uri: string; readonly mimeType?: string | undefined; readonly text: string }
    | { readonly uri: string; readonly mimeType?: string | undefined; readonly blob: string | Uint8Array },
  annotations?: ContentAnnotations,
): EmbeddedResource {
  const { uri, mimeType } = resource;
  if ('blob' in resource && 'text' in resource) throw new ToolkitError('INVALID_CONTENT', 'embeddedResource: give either text or blob, not both.');
  const body = 'blob' in resource ? { blob: base64Of(resource.blob) } : { text: resource.text };
  const contents = Object.freeze({ uri, ...(mimeType !== undefined ? { mimeType } : {}), ...body });
  return made(withAnnotations({ type: 'resource' as const, resource: contents }, annotations, 'embeddedResource'), 'embeddedResource');
}

/**
 * A link to a resource the client can read (by its URI) instead of its contents.
 *
 * @example
 * resourceLink({ uri: 'file:///reports/q3.pdf', name: 'q3.pdf', mimeType: 'application/pdf', description: 'Q3 report' });
 * @throws ToolkitError `INVALID_CONTENT` when `uri` or `name` is missing or empty, or `size` is not
 *   a whole number of bytes.
 */
export function resourceLink(link: Omit<ResourceLink, 'type' | 'annotations'>, annotations?: ContentAnnotations): ResourceLink {
  const { uri, name, title, description, mimeType, size } = link;
  const part = {
    type: 'resource_link' as const,
    uri,
    name,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(mimeType !== undefined ? { mimeType } : {}),
    ...(size !== undefined ? { size } : {}),
  };
  return made(withAnnotations(part, annotations, 'resourceLink'), 'resourceLink');
}

/**
 * A result made of content parts (a string is a text part). Its `content` is served as MCP
 * content and reaches adapters that take images; `forLLM` and `forUser` are its texts:
 * `forLLM` joins the parts meant for the model (audience unset or listing `'assistant'`),
 * `forUser` those meant for the user when that differs, and binary parts appear in both as a
 * short placeholder (`[image: image/png, 4033 bytes]`). A result no part of which is for the user
 * is `silent`.
 *
 * A tool may also return one part, or an array of parts made by these helpers, directly: it
 * becomes this result. A plain object that only looks like a part is data (JSON text), as before.
 *
 * @example
 * return contentResult([
 *   'Revenue by quarter:',
 *   imageContent(png, 'image/png'),
 *   textContent('Open the dashboard for details.', { audience: ['user'] }),
 * ]);
 * // forLLM: 'Revenue by quarter:\n[image: image/png, 1234 bytes]'
 * @throws ToolkitError `INVALID_CONTENT` when a part is malformed (the message names it by position).
 */
export function contentResult(parts: ToolContent | string | readonly (ToolContent | string)[], data?: unknown): ToolResult {
  const list = (Array.isArray(parts) ? (parts as readonly (ToolContent | string)[]) : [parts as ToolContent | string]).map((part) =>
    typeof part === 'string' ? textContent(part) : part,
  );
  const problem = list.every(isMadeContent) ? undefined : contentProblem(list);
  if (problem !== undefined) throw new ToolkitError('INVALID_CONTENT', `contentResult: ${problem}.`);
  const content = Object.freeze(list);
  const { forLLM, forUser, silent } = resultTexts(content);
  const result: ToolResult = { forLLM, silent, isError: false, async: false, content };
  if (forUser !== undefined) result.forUser = forUser;
  if (data !== undefined) result.data = data;
  return result;
}
