import type { Frozen, ReadonlyJsonSchema, ReadonlyObjectJsonSchema } from '../../model/json-schema';

/**
 * The providers a canonical tool schema can be lowered for.
 *
 * @example
 * const provider: ProviderName = 'openai-responses';
 */
export type ProviderName = 'openai' | 'openai-responses' | 'anthropic' | 'gemini' | 'mcp';

/**
 * Options of {@link lowerToolSchemas}.
 *
 * @example
 * lowerToolSchemas(tools, 'openai', { strict: true });
 */
export interface LoweringOptions {
  /**
   * OpenAI only (`openai`, `openai-responses`): emit the Structured Outputs ("strict") form,
   * in which every property is required, optionals are `null` unions and every object has
   * `additionalProperties: false`. Ignored by the other providers. Default `false`.
   */
  strict?: boolean | undefined;
  /**
   * The most characters a tool's examples (`@Tool({ examples })`) may add to its description for
   * providers without an examples field (all but Anthropic, which gets `input_examples`). Whole
   * examples that do not fit are left out and reported. Default 1000; `0` renders none.
   */
  examplesBudget?: number | undefined;
}

/**
 * One thing a lowering changed or dropped, so users can see why the model gets a schema that
 * differs from the canonical one.
 *
 * @example
 * // { tool: 'get_weather', path: 'days', change: 'made required and nullable for strict mode' }
 * // { tool: 'get_weather', path: '', change: 'gemini: dropped additionalProperties' }
 */
export interface LoweringChange {
  /** The tool's name. */
  tool: string;
  /**
   * Where in the parameters: `''` for the root, `a.b` for nested properties, `a[]` for array
   * items, `a.anyOf[1]` for union branches, `$defs.Name` for definitions.
   */
  path: string;
  /** What was changed, and why. */
  change: string;
  /**
   * `true` on the one entry saying that the tool was left out of the definitions because it
   * cannot be lowered for this provider (`change` says why); such an entry is a
   * {@link LoweringOmission}.
   */
  omitted?: true | undefined;
}

/**
 * A tool left out of a provider's definitions because it cannot be expressed for that provider
 * (a name the provider rejects, a recursive schema for Gemini, a map in OpenAI strict mode…).
 * The other tools are lowered as usual. It appears in the lowering report (`omitted: true`,
 * `path: ''`) and in {@link LoweringResult.omitted}.
 *
 * @example
 * // { tool: 'mem_search', path: '', omitted: true, provider: 'gemini', code: 'INVALID_DEFINITION',
 * //   change: 'left out of the Gemini definitions: Tool "mem_search" cannot be sent to Gemini: … is recursive …' }
 */
export interface LoweringOmission extends LoweringChange {
  /** Always `true`: the tool is not in the definitions. */
  omitted: true;
  /** The provider the tool could not be lowered for. */
  provider: ProviderName;
  /** The error code of the failed lowering. */
  code: 'INVALID_NAME' | 'INVALID_DEFINITION';
}

/**
 * An OpenAI Chat Completions function tool (`tools[]` of `chat.completions.create`).
 *
 * @example
 * const def: OpenAIChatToolDefinition = {
 *   type: 'function',
 *   function: { name: 'echo', description: 'Echo', parameters: { type: 'object', properties: {} } },
 * };
 */
export interface OpenAIChatToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: ReadonlyJsonSchema;
    /** Present (and `true`) only for the strict form. */
    readonly strict?: boolean;
  };
}

/**
 * An OpenAI Responses API function tool (`tools[]` of `responses.create`). `strict` is always
 * sent: the Responses API defaults it to `true` when absent.
 *
 * @example
 * const def: OpenAIResponsesToolDefinition = {
 *   type: 'function', name: 'echo', description: 'Echo',
 *   parameters: { type: 'object', properties: {} }, strict: false,
 * };
 */
export interface OpenAIResponsesToolDefinition {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: ReadonlyJsonSchema;
  readonly strict: boolean;
}

/**
 * An Anthropic Messages API client tool (`tools[]` of `messages.create`).
 *
 * @example
 * const def: AnthropicToolDefinition = {
 *   name: 'echo', description: 'Echo', input_schema: { type: 'object', properties: {} },
 * };
 */
export interface AnthropicToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: ReadonlyObjectJsonSchema;
  /** Example arguments (`@Tool({ examples })`): the Messages API's tool use examples. */
  readonly input_examples?: { [key: string]: unknown }[];
}

/**
 * The OpenAPI-subset schema Gemini accepts in `FunctionDeclaration.parameters`.
 *
 * @example
 * const s: GeminiSchema = { type: 'string', nullable: true, enum: ['C', 'F'] };
 */
export interface GeminiSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  propertyOrdering?: string[];
  minProperties?: number;
  maxProperties?: number;
  items?: GeminiSchema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  anyOf?: GeminiSchema[];
  default?: unknown;
  example?: unknown;
}

/**
 * A Gemini `FunctionDeclaration`. `parameters` is omitted for a tool without parameters
 * (Gemini rejects an object schema without properties).
 *
 * @example
 * const def: GeminiFunctionDeclaration = {
 *   name: 'echo', description: 'Echo',
 *   parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 * };
 */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description: string;
  readonly parameters?: Frozen<GeminiSchema>;
}

/**
 * An MCP tool as served by `tools/list`.
 *
 * @example
 * const def: McpToolDefinition = {
 *   name: 'echo', description: 'Echo', inputSchema: { type: 'object', properties: {} },
 * };
 */
export interface McpToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ReadonlyObjectJsonSchema;
}

/**
 * The definition type each provider gets, so `lowerToolSchemas(tools, 'anthropic')` is typed as
 * Anthropic definitions.
 *
 * @example
 * type Defs = ProviderToolDefinitionMap['gemini']; // GeminiFunctionDeclaration
 */
export interface ProviderToolDefinitionMap {
  openai: OpenAIChatToolDefinition;
  'openai-responses': OpenAIResponsesToolDefinition;
  anthropic: AnthropicToolDefinition;
  gemini: GeminiFunctionDeclaration;
  mcp: McpToolDefinition;
}

/**
 * Any provider's tool definition.
 *
 * @example
 * function nameOf(def: ProviderToolDefinition): string {
 *   return 'function' in def ? def.function.name : def.name;
 * }
 */
export type ProviderToolDefinition = ProviderToolDefinitionMap[ProviderName];

/**
 * What {@link lowerToolSchemas} returns: the definitions (deeply frozen objects, in input order),
 * the list of changes it made tool by tool, and the tools it had to leave out.
 *
 * @example
 * const { definitions, report }: LoweringResult<AnthropicToolDefinition> =
 *   lowerToolSchemas(tools, 'anthropic');
 */
export interface LoweringResult<D extends ProviderToolDefinition = ProviderToolDefinition> {
  /** One definition per input tool that could be lowered, in input order. */
  readonly definitions: readonly D[];
  /** Every change, in tool order then schema order, the tools left out included. Empty when nothing had to change. */
  readonly report: readonly LoweringChange[];
  /** The tools left out because they cannot be lowered for the provider (also in `report`). */
  readonly omitted: readonly LoweringOmission[];
}
