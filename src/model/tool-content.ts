/**
 * Who a content part is meant for: the person using the application (`'user'`), the model
 * (`'assistant'`), or both (the part's `audience` unset, or listing both). The names are MCP's.
 */
export type ContentAudience = 'user' | 'assistant';

/**
 * Hints about a content part, as MCP's `annotations`: who it is for, how important it is, when
 * it last changed. `audience` decides the texts of a result: a part whose audience leaves out
 * `'assistant'` never reaches `forLLM`.
 *
 * @example
 * const forPeople: ContentAnnotations = { audience: ['user'], priority: 0.2 };
 */
export interface ContentAnnotations {
  /** Who the part is for; unset: everyone. */
  readonly audience?: readonly ContentAudience[] | undefined;
  /** How important the part is, from 0 (least) to 1 (most). */
  readonly priority?: number | undefined;
  /** When what the part shows last changed: an ISO 8601 date-time with a zone (`2026-01-05T10:00:00Z`). */
  readonly lastModified?: string | undefined;
}

/** What every content part has besides its kind and body: its annotations. */
export interface AnnotatedContent {
  /** Who it is for and how important it is. */
  readonly annotations?: ContentAnnotations | undefined;
}

/** Text, for the model and the user (as MCP's `TextContent`). */
export interface TextContent extends AnnotatedContent {
  /** The kind of part. */
  readonly type: 'text';
  /** The text. */
  readonly text: string;
}

/** An image as base64 data (as MCP's `ImageContent`). */
export interface ImageContent extends AnnotatedContent {
  /** The kind of part. */
  readonly type: 'image';
  /** The image bytes, base64-encoded (standard alphabet, padded; no `data:` prefix). */
  readonly data: string;
  /** Its media type, `image/…` (`image/png`, `image/jpeg`…). */
  readonly mimeType: string;
}

/** Audio as base64 data (as MCP's `AudioContent`). */
export interface AudioContent extends AnnotatedContent {
  /** The kind of part. */
  readonly type: 'audio';
  /** The audio bytes, base64-encoded (standard alphabet, padded; no `data:` prefix). */
  readonly data: string;
  /** Its media type, `audio/…` (`audio/wav`, `audio/mpeg`…). */
  readonly mimeType: string;
}

/** The text of a resource embedded in a result (as MCP's `TextResourceContents`). */
export interface TextResourceContents {
  /** The resource's URI. */
  readonly uri: string;
  /** Its media type, if known. */
  readonly mimeType?: string | undefined;
  /** Its text. */
  readonly text: string;
}

/** The bytes of a resource embedded in a result (as MCP's `BlobResourceContents`). */
export interface BlobResourceContents {
  /** The resource's URI. */
  readonly uri: string;
  /** Its media type, if known. */
  readonly mimeType?: string | undefined;
  /** Its bytes, base64-encoded (standard alphabet, padded). */
  readonly blob: string;
}

/** A resource's contents carried inside the result (as MCP's `EmbeddedResource`). */
export interface EmbeddedResource extends AnnotatedContent {
  /** The kind of part. */
  readonly type: 'resource';
  /** The resource: its URI and its text or its bytes. */
  readonly resource: TextResourceContents | BlobResourceContents;
}

/** A pointer to a resource the client can read or subscribe to (as MCP's `ResourceLink`). */
export interface ResourceLink extends AnnotatedContent {
  /** The kind of part. */
  readonly type: 'resource_link';
  /** The resource's URI. */
  readonly uri: string;
  /** Its name (an identifier; `title` is for display). */
  readonly name: string;
  /** A human-readable title. */
  readonly title?: string | undefined;
  /** What the resource is, for the model and the user. */
  readonly description?: string | undefined;
  /** Its media type, if known. */
  readonly mimeType?: string | undefined;
  /** Its size in bytes, if known. */
  readonly size?: number | undefined;
}

/**
 * One part of a rich tool result: the content kinds of MCP tool results. Build them with
 * `textContent`, `imageContent`, `audioContent`, `embeddedResource` and `resourceLink`, and a
 * result from them with `contentResult`.
 *
 * @example
 * const parts: ToolContent[] = [textContent('The chart:'), imageContent(png, 'image/png')];
 */
export type ToolContent = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;
