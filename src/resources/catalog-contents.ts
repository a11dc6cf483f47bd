import { isPlainObject } from '../utils/plain-object';
import { previewInput } from '../utils/quote-input';
import { ToolkitError } from '../errors';
import type { Scrub } from '../executor/presets/redact';
import type { CatalogEntry } from './catalog-entry';
import type { ContentAnnotations } from '../model/tool-content';
import type { PromptContent, PromptGetResult, PromptMessage, ResourceContent, ResourceReadResult } from './catalog-types';
import { describeMember } from './member-run';

/** Turns what a method returned into MCP content, refusing what it cannot be, and keeping preset values out. */
class Shaper {
  constructor(
    private readonly entry: CatalogEntry,
    private readonly scrub: Scrub | undefined,
  ) {}

  invalid(what: string): never {
    throw new ToolkitError('EXECUTION_FAILED', `${describeMember(this.entry)} returned ${what}`);
  }

  text(value: string): string {
    return this.scrub === undefined ? value : this.scrub(value);
  }

  /** Bytes (or base64 text) as base64; withheld when their text holds a preset value. */
  base64(value: unknown, where: string): string {
    let bytes: Buffer;
    if (value instanceof Uint8Array) bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    else if (typeof value === 'string') bytes = Buffer.from(value, 'base64');
    else return this.invalid(`${where} that is neither a Uint8Array nor base64 text (got ${previewInput(value, 60)}).`);
    if (this.scrub !== undefined) {
      const text = bytes.toString('utf8');
      if (this.scrub(text) !== text || (typeof value === 'string' && this.scrub(value) !== value)) {
        throw new ToolkitError('RESULT_WITHHELD', `${describeMember(this.entry)} was withheld: its binary content holds a preset value.`);
      }
    }
    return typeof value === 'string' ? value : bytes.toString('base64');
  }

  optionalText(value: unknown, where: string): string | undefined {
    if (value === undefined) return undefined;
    return typeof value === 'string' ? this.text(value) : this.invalid(`${where} that is not text.`);
  }

  annotations(value: unknown, where: string): { annotations?: ContentAnnotations } {
    if (value === undefined) return {};
    return isPlainObject(value) ? { annotations: value as ContentAnnotations } : this.invalid(`${where}.annotations that is not an object.`);
  }

  /** One `{ uri?, mimeType?, text | blob }` as resource content. */
  resourceContent(item: unknown, uri: string, mimeType: string | undefined, where: string): ResourceContent {
    if (!isPlainObject(item)) return this.invalid(`${where} that is not an object with text or blob.`);
    const own = this.optionalText(item.uri, `${where}.uri`) ?? uri;
    const type = this.optionalText(item.mimeType, `${where}.mimeType`) ?? mimeType;
    const base = { uri: own, ...(type !== undefined ? { mimeType: type } : {}) };
    if (typeof item.text === 'string') return { ...base, text: this.text(item.text) };
    if (item.blob !== undefined) return { ...base, blob: this.base64(item.blob, `${where}.blob`) };
    return this.invalid(`${where} without text or blob.`);
  }

  promptContent(content: unknown, where: string): PromptContent {
    if (typeof content === 'string') return { type: 'text', text: this.text(content) };
    if (!isPlainObject(content)) return this.invalid(`${where} that is neither text nor a content object.`);
    const annotations = this.annotations(content.annotations, where);
    switch (content.type) {
      case 'text':
        return { type: 'text', text: this.optionalText(content.text, `${where}.text`) ?? this.invalid(`${where} without text.`), ...annotations };
      case 'image':
      case 'audio': {
        const mimeType = this.optionalText(content.mimeType, `${where}.mimeType`) ?? this.invalid(`${where} without mimeType.`);
        return { type: content.type, data: this.base64(content.data, `${where}.data`), mimeType, ...annotations };
      }
      case 'resource': {
        const resource = content.resource;
        const uri = isPlainObject(resource) ? this.optionalText(resource.uri, `${where}.resource.uri`) : undefined;
        if (uri === undefined) return this.invalid(`${where} whose resource has no uri.`);
        return { type: 'resource', resource: this.resourceContent(resource, uri, undefined, `${where}.resource`), ...annotations };
      }
      case 'resource_link': {
        const uri = this.optionalText(content.uri, `${where}.uri`);
        const name = this.optionalText(content.name, `${where}.name`);
        if (uri === undefined || name === undefined) return this.invalid(`${where}: a resource_link needs uri and name.`);
        const extra: Record<string, string> = {};
        for (const key of ['title', 'description', 'mimeType'] as const) {
          const value = this.optionalText(content[key], `${where}.${key}`);
          if (value !== undefined) extra[key] = value;
        }
        return { type: 'resource_link', uri, name, ...extra, ...annotations };
      }
      default:
        return this.invalid(`${where} of type ${previewInput(content.type, 40)}; use text, image, audio, resource or resource_link.`);
    }
  }

  message(item: unknown, index: number): PromptMessage {
    const where = `message #${index}`;
    if (!isPlainObject(item) || (item.role !== 'user' && item.role !== 'assistant')) {
      return this.invalid(`${where} that is not { role: 'user' | 'assistant', content }.`);
    }
    return { role: item.role, content: this.promptContent(item.content, `${where}.content`) };
  }
}

/**
 * @internal What a resource method returned as MCP contents: a string is text, a `Uint8Array`
 * (a `Buffer`) a base64 blob, `{ contents: [...] }` says everything, any other value is JSON
 * text. Text has preset values redacted; binary content holding one is withheld.
 *
 * @throws ToolkitError `EXECUTION_FAILED` for what cannot be content (`undefined`, a malformed
 *   `contents` item, a value with no JSON text); `RESULT_WITHHELD`.
 */
export function toResourceContents(entry: CatalogEntry, value: unknown, uri: string, scrub: Scrub | undefined): ResourceReadResult {
  const shaper = new Shaper(entry, scrub);
  const mimeType = entry.descriptor.kind === 'resource' ? entry.descriptor.mimeType : undefined;
  const base = { uri, ...(mimeType !== undefined ? { mimeType } : {}) };
  if (typeof value === 'string') return { contents: [{ ...base, text: shaper.text(value) }] };
  if (value instanceof Uint8Array) return { contents: [{ ...base, blob: shaper.base64(value, 'bytes') }] };
  if (isPlainObject(value) && value.contents !== undefined) {
    if (!Array.isArray(value.contents)) return shaper.invalid('{ contents } whose contents is not an array.');
    return { contents: value.contents.map((item: unknown, i: number) => shaper.resourceContent(item, uri, mimeType, `contents[${i}]`)) };
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return shaper.invalid(`a value with no JSON text (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (json === undefined) return shaper.invalid(`${previewInput(value, 40)}: return a string, bytes, a JSON value or { contents: [...] }.`);
  return { contents: [{ uri, mimeType: mimeType ?? 'application/json', text: shaper.text(json) }] };
}

/**
 * @internal What a prompt method returned as MCP messages: a string is one user message, an
 * array holds `{ role, content }` messages (content as text or a content block), and
 * `{ description?, messages }` adds a description. Preset values are redacted; binary content
 * holding one is withheld.
 *
 * @throws ToolkitError `EXECUTION_FAILED` for anything else; `RESULT_WITHHELD`.
 */
export function toPromptResult(entry: CatalogEntry, value: unknown, scrub: Scrub | undefined): PromptGetResult {
  const shaper = new Shaper(entry, scrub);
  if (typeof value === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: shaper.text(value) } }] };
  const list = Array.isArray(value) ? value : isPlainObject(value) && Array.isArray(value.messages) ? value.messages : undefined;
  if (list === undefined) return shaper.invalid(`${previewInput(value, 60)}: return a string, an array of { role, content } messages, or { description?, messages }.`);
  const description = !Array.isArray(value) && isPlainObject(value) ? shaper.optionalText(value.description, 'description') : undefined;
  return { ...(description !== undefined ? { description } : {}), messages: list.map((item: unknown, i: number) => shaper.message(item, i)) };
}
