/**
 * The shapes of the requests a tool can send the client that called it — MCP's
 * `sampling/createMessage`, `elicitation/create` (form mode) and `roots/list` — and of their answers. They
 * follow the MCP specification field for field, so they pass to and from the MCP SDK unchanged.
 */

/** A text part of a sampling message. */
export interface SamplingTextContent {
  readonly type: 'text';
  /** The text. */
  readonly text: string;
}

/** An image part of a sampling message (base64 data). */
export interface SamplingImageContent {
  readonly type: 'image';
  /** The base64-encoded image. */
  readonly data: string;
  /** Its MIME type, e.g. `image/png`. */
  readonly mimeType: string;
}

/** An audio part of a sampling message (base64 data). */
export interface SamplingAudioContent {
  readonly type: 'audio';
  /** The base64-encoded audio. */
  readonly data: string;
  /** Its MIME type, e.g. `audio/wav`. */
  readonly mimeType: string;
}

/** A part of a sampling message: text, image or audio. */
export type SamplingContent = SamplingTextContent | SamplingImageContent | SamplingAudioContent;

/** One message of the conversation a tool asks the client's model to continue. */
export interface SamplingMessage {
  /** Who speaks. */
  readonly role: 'user' | 'assistant';
  /** What is said. */
  readonly content: SamplingContent;
}

/** What a tool prefers of the model the client picks; the client decides. */
export interface ModelPreferences {
  /** Model names in order of preference, e.g. `[{ name: 'claude-3-5-sonnet' }]` (a substring matches). */
  readonly hints?: readonly { readonly name?: string | undefined }[] | undefined;
  /** 0..1: how much a cheap model matters. */
  readonly costPriority?: number | undefined;
  /** 0..1: how much a fast model matters. */
  readonly speedPriority?: number | undefined;
  /** 0..1: how much a capable model matters. */
  readonly intelligencePriority?: number | undefined;
}

/**
 * A request to the client's model (MCP `sampling/createMessage`): the client — usually after
 * asking its user — runs its own model on these messages and answers with one message.
 *
 * @example
 * const request: SamplingRequest = {
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Summarise: …' } }],
 *   maxTokens: 200,
 *   systemPrompt: 'You write one-line summaries.',
 * };
 */
export interface SamplingRequest {
  /** The conversation so far. */
  readonly messages: readonly SamplingMessage[];
  /** The most tokens to generate. */
  readonly maxTokens: number;
  /** A system prompt the client may use (or change). */
  readonly systemPrompt?: string | undefined;
  /** Sampling temperature. */
  readonly temperature?: number | undefined;
  /** Texts that end the generation. */
  readonly stopSequences?: readonly string[] | undefined;
  /** Which model the tool would like. */
  readonly modelPreferences?: ModelPreferences | undefined;
  /** Context from MCP servers the client may add (`'none'` unless the client declares support). */
  readonly includeContext?: 'none' | 'thisServer' | 'allServers' | undefined;
  /** Provider-specific settings passed through to the client. */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** The client's answer to a {@link SamplingRequest}: one message, and the model that wrote it. */
export interface SamplingResult {
  /** Who speaks (usually `'assistant'`). */
  readonly role: 'user' | 'assistant';
  /** The generated content. */
  readonly content: SamplingContent;
  /** The name of the model that generated it. */
  readonly model: string;
  /** Why generation stopped: `'endTurn'`, `'stopSequence'`, `'maxTokens'` or a provider's own reason. */
  readonly stopReason?: string | undefined;
}

/** Fields every elicitation field may have. */
export interface ElicitationFieldBase {
  /** A label for the field. */
  readonly title?: string | undefined;
  /** Help text for the field. */
  readonly description?: string | undefined;
}

/** A text field; with `enum` or `oneOf`, a single choice among texts. */
export interface ElicitationStringField extends ElicitationFieldBase {
  readonly type: 'string';
  readonly minLength?: number | undefined;
  readonly maxLength?: number | undefined;
  readonly format?: 'email' | 'uri' | 'date' | 'date-time' | undefined;
  /** The allowed values (a single-select). */
  readonly enum?: readonly string[] | undefined;
  /** Display names of `enum` values (deprecated by MCP in favour of `oneOf`). */
  readonly enumNames?: readonly string[] | undefined;
  /** The allowed values with their titles (a titled single-select). */
  readonly oneOf?: readonly { readonly const: string; readonly title: string }[] | undefined;
  readonly default?: string | undefined;
}

/** A number field (`integer`: whole numbers only). */
export interface ElicitationNumberField extends ElicitationFieldBase {
  readonly type: 'number' | 'integer';
  readonly minimum?: number | undefined;
  readonly maximum?: number | undefined;
  readonly default?: number | undefined;
}

/** A yes/no field. */
export interface ElicitationBooleanField extends ElicitationFieldBase {
  readonly type: 'boolean';
  readonly default?: boolean | undefined;
}

/** A multi-select: an array of texts chosen among `items.enum` (or `items.anyOf`, titled). */
export interface ElicitationMultiSelectField extends ElicitationFieldBase {
  readonly type: 'array';
  readonly items:
    | { readonly type: 'string'; readonly enum: readonly string[] }
    | { readonly anyOf: readonly { readonly const: string; readonly title: string }[] };
  readonly minItems?: number | undefined;
  readonly maxItems?: number | undefined;
  readonly default?: readonly string[] | undefined;
}

/** One field of an elicitation form: MCP allows flat fields of these kinds only. */
export type ElicitationField = ElicitationStringField | ElicitationNumberField | ElicitationBooleanField | ElicitationMultiSelectField;

/** The form a tool asks the user to fill: an object of flat fields. */
export interface ElicitationSchema {
  readonly type: 'object';
  /** The fields, by name. */
  readonly properties: Readonly<Record<string, ElicitationField>>;
  /** The fields the user must fill when accepting. */
  readonly required?: readonly string[] | undefined;
}

/**
 * A request for input from the client's user (MCP `elicitation/create`, form mode).
 *
 * @example
 * const request: ElicitationRequest = {
 *   message: 'Which account should receive the refund?',
 *   requestedSchema: { type: 'object', properties: { iban: { type: 'string', minLength: 15 } }, required: ['iban'] },
 * };
 */
export interface ElicitationRequest {
  /** What the user is asked, shown with the form. */
  readonly message: string;
  /** The form. */
  readonly requestedSchema: ElicitationSchema;
}

/** A value the user may give in a form: a text, a number, a boolean, or the texts of a multi-select. */
export type ElicitationValue = string | number | boolean | string[];

/**
 * The user's answer: `accept` with the form's `content` (validated against the requested
 * schema, holding only its fields), `decline` (an explicit no) or `cancel` (dismissed).
 *
 * @example
 * const answer = await client.elicit<{ iban: string }>(request);
 * if (answer.action === 'accept') refund(answer.content!.iban);
 */
export interface ElicitationResult<T extends Record<string, ElicitationValue> = Record<string, ElicitationValue>> {
  /** What the user did. */
  readonly action: 'accept' | 'decline' | 'cancel';
  /** The form's values, when the user accepted. */
  readonly content?: T | undefined;
}

/** One root the client lets servers work in (MCP `roots/list`): a URI (usually `file://`) and an optional name. */
export interface ClientRoot {
  /** The root's URI, e.g. `file:///home/user/project`. */
  readonly uri: string;
  /** A name to show for it. */
  readonly name?: string | undefined;
}

/**
 * The client's answer to a roots request (MCP `roots/list`): the roots it exposes, as it sent
 * them (checked for shape only: a root is what the client says, not a permission).
 */
export interface RootsResult {
  /** The roots, in the client's order. */
  readonly roots: readonly ClientRoot[];
}
