import type { ClientRequestHandler } from '../model/client-requests';
import type { ToolExecutionContext } from '../model/execution-context';
import type { ResourceAnnotations } from '../metadata/records';
import type { ContentAnnotations } from '../model/tool-content';

/**
 * A fixed resource as `resources/list` shows it.
 *
 * @example
 * toolkit.resources.list(); // [{ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' }]
 */
export interface ResourceInfo {
  /** Where it is read. */
  readonly uri: string;
  /** Its name (`@Resource({ name })`, by default the method's in snake_case). */
  readonly name: string;
  /** A human-readable title. */
  readonly title?: string;
  /** What it holds. */
  readonly description?: string;
  /** The MIME type of its content. */
  readonly mimeType?: string;
  /** Audience, priority, last change. */
  readonly annotations?: Readonly<ResourceAnnotations>;
  /** The size of the content in bytes, when `@Resource` says it. */
  readonly size?: number;
}

/**
 * A resource template as `resources/templates/list` shows it.
 *
 * @example
 * toolkit.resources.templates(); // [{ uriTemplate: 'docs://pages/{slug}', name: 'page' }]
 */
export interface ResourceTemplateInfo {
  /** The RFC 6570 template of the URIs it reads. */
  readonly uriTemplate: string;
  /** Its name. */
  readonly name: string;
  /** A human-readable title. */
  readonly title?: string;
  /** What it holds. */
  readonly description?: string;
  /** The MIME type of its content. */
  readonly mimeType?: string;
  /** Audience, priority, last change. */
  readonly annotations?: Readonly<ResourceAnnotations>;
}

/** One argument of a prompt, as `prompts/list` shows it (preset arguments never appear). */
export interface PromptArgumentInfo {
  /** The argument's name. */
  readonly name: string;
  /** What it means. */
  readonly description?: string;
  /** Whether the prompt needs it. */
  readonly required: boolean;
}

/**
 * A prompt as `prompts/list` shows it.
 *
 * @example
 * toolkit.prompts.list(); // [{ name: 'review', description: 'Review a PR', arguments: [{ name: 'pr', required: true }] }]
 */
export interface PromptInfo {
  /** Its name (`@Prompt({ name })`, by default the method's in snake_case). */
  readonly name: string;
  /** A human-readable title. */
  readonly title?: string;
  /** What it is for. */
  readonly description: string;
  /** Its arguments, in parameter order. */
  readonly arguments: readonly PromptArgumentInfo[];
}

/** Text content of a resource. */
export interface TextResourceContent {
  /** The URI the content belongs to. */
  readonly uri: string;
  /** Its MIME type. */
  readonly mimeType?: string;
  /** The text. */
  readonly text: string;
}

/** Binary content of a resource, base64-encoded. */
export interface BlobResourceContent {
  /** The URI the content belongs to. */
  readonly uri: string;
  /** Its MIME type. */
  readonly mimeType?: string;
  /** The bytes, base64-encoded. */
  readonly blob: string;
}

/** One part of a resource's content (MCP `TextResourceContents` / `BlobResourceContents`). */
export type ResourceContent = TextResourceContent | BlobResourceContent;

/**
 * What a resource method may return in `{ contents: [...] }`: text, or bytes (a `Uint8Array` or
 * base64 text) as `blob`. `uri` defaults to the URI read, `mimeType` to the resource's.
 */
export type ResourceContentInput =
  | { readonly uri?: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri?: string; readonly mimeType?: string; readonly blob: string | Uint8Array };

/** What reading a resource gives (MCP `ReadResourceResult`). */
export interface ResourceReadResult {
  /** The parts of the content (most resources have one). */
  readonly contents: readonly ResourceContent[];
}


/**
 * One content block of a prompt message (MCP `ContentBlock`). In what a prompt method returns,
 * `data` and `blob` may also be a `Uint8Array` (encoded as base64 for you).
 */
export type PromptContent =
  | { readonly type: 'text'; readonly text: string; readonly annotations?: ContentAnnotations }
  | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string; readonly annotations?: ContentAnnotations }
  | { readonly type: 'resource'; readonly resource: ResourceContent; readonly annotations?: ContentAnnotations }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
      readonly title?: string;
      readonly description?: string;
      readonly mimeType?: string;
      readonly annotations?: ContentAnnotations;
    };

/** One message of a prompt. */
export interface PromptMessage {
  /** Who says it. */
  readonly role: 'user' | 'assistant';
  /** What is said. */
  readonly content: PromptContent;
}

/**
 * A message as a prompt method may return it: `content` may be plain text, and binary `data`
 * or `blob` may be a `Uint8Array`.
 */
export interface PromptMessageInput {
  /** Who says it. */
  readonly role: 'user' | 'assistant';
  /** What is said: text, or a content block. */
  readonly content: string | PromptContentInput;
}

/** {@link PromptContent} with bytes allowed where MCP wants base64. */
export type PromptContentInput =
  | PromptContent
  | { readonly type: 'image' | 'audio'; readonly data: Uint8Array; readonly mimeType: string; readonly annotations?: ContentAnnotations }
  | { readonly type: 'resource'; readonly resource: ResourceContentInput & { readonly uri: string }; readonly annotations?: ContentAnnotations };

/**
 * What a `@Prompt` method returns: a string (one user message), messages, or messages with a
 * description (each maybe in a Promise).
 */
export type PromptReturn = string | readonly PromptMessageInput[] | { readonly description?: string; readonly messages: readonly PromptMessageInput[] };

/** What getting a prompt gives (MCP `GetPromptResult`). */
export interface PromptGetResult {
  /** What the method said of this rendering, if anything. */
  readonly description?: string;
  /** The messages, in order. */
  readonly messages: readonly PromptMessage[];
}

/** Suggestions for an argument (MCP `completion/complete`): at most 100 values, `total` counts them all. */
export interface CompletionResult {
  /** The suggestions, at most 100. */
  readonly values: readonly string[];
  /** How many the callback gave. */
  readonly total: number;
  /** True when more were given than sent. */
  readonly hasMore: boolean;
}

/**
 * Options of reading a resource, getting a prompt or completing an argument.
 *
 * @example
 * await session.resources.read('docs://pages/intro', { context: ToolExecutionContext.of(user), signal });
 */
export interface CatalogCallOptions {
  /** Call-level context objects (highest priority in the chain). */
  context?: ToolExecutionContext | undefined;
  /** Agent-level context objects. */
  agentContext?: ToolExecutionContext | undefined;
  /** Aborts the read: the method's injected `AbortSignal` fires and the Promise rejects with `ABORTED`. */
  signal?: AbortSignal | undefined;
  /**
   * Answers what the method asks through an injected `ClientRequests` (sampling, elicitation,
   * roots), over the toolkit's `clientRequests`. The MCP servers set it to the client of the request.
   */
  client?: ClientRequestHandler | undefined;
}

/** Options of completing an argument: {@link CatalogCallOptions} plus the other arguments filled in. */
export interface CompleteOptions extends CatalogCallOptions {
  /** What the client has filled in of the other arguments. */
  arguments?: Readonly<Record<string, string>> | undefined;
}
