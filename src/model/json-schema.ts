/** The JSON types a JSON Schema `type` keyword can name. */
export type JsonSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/**
 * A schema in a place where JSON Schema takes one: a {@link JsonSchema}, or a boolean schema
 * (`true` accepts every value, `false` none), as in `items: false` after `prefixItems` (a closed
 * tuple, what zod 4's `z.toJSONSchema` writes) or `properties: { legacy: false }`.
 */
export type JsonSchemaDefinition = JsonSchema | boolean;

/**
 * A JSON Schema (draft 2020-12 / draft-07 subset) as toolwright produces and accepts it.
 * Known keywords are typed, each subschema as JSON Schema allows it (a {@link JsonSchemaDefinition},
 * booleans included); any other keyword is allowed and passed through.
 */
export interface JsonSchema {
  type?: JsonSchemaType | JsonSchemaType[];
  description?: string;
  title?: string;
  properties?: Record<string, JsonSchemaDefinition>;
  patternProperties?: Record<string, JsonSchemaDefinition>;
  required?: string[];
  additionalProperties?: JsonSchemaDefinition;
  unevaluatedProperties?: JsonSchemaDefinition;
  propertyNames?: JsonSchemaDefinition;
  dependentSchemas?: Record<string, JsonSchemaDefinition>;
  /** The schema of every item; after `prefixItems`, of the items past the tuple. An array: draft-07's tuple. */
  items?: JsonSchemaDefinition | JsonSchemaDefinition[];
  /** A tuple (2020-12): the schema of each position. */
  prefixItems?: JsonSchemaDefinition[];
  /** Draft-07: the schema of the items past an `items: [...]` tuple. */
  additionalItems?: JsonSchemaDefinition;
  unevaluatedItems?: JsonSchemaDefinition;
  contains?: JsonSchemaDefinition;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  /**
   * A number. A boolean is draft-04's form, which registration refuses (toolwright validates
   * draft 2020-12 and draft-07); the type allows it so that zod 4's `z.toJSONSchema()` output,
   * typed for every draft, is a `JsonSchema` without a cast.
   */
  exclusiveMinimum?: number | boolean;
  /** A number; see `exclusiveMinimum` for the boolean. */
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  default?: unknown;
  examples?: unknown[];
  anyOf?: JsonSchemaDefinition[];
  oneOf?: JsonSchemaDefinition[];
  allOf?: JsonSchemaDefinition[];
  not?: JsonSchemaDefinition;
  if?: JsonSchemaDefinition;
  then?: JsonSchemaDefinition;
  else?: JsonSchemaDefinition;
  $ref?: string;
  $defs?: Record<string, JsonSchemaDefinition>;
  definitions?: Record<string, JsonSchemaDefinition>;
  $schema?: string;
  nullable?: boolean;
  [keyword: string]: unknown;
}

/** A tool's JSON Schema for its parameters: always an object at the root. */
export interface ObjectJsonSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchemaDefinition>;
  required?: string[];
}

/**
 * `T` as toolwright hands it out deep-frozen (schemas from `getToolSchemas()`, `toProviderDefs()`,
 * `lowerTools()`, a registered tool's `parameters`): every member readonly at every depth, so an
 * assignment or a `delete` that would throw at run time fails to compile. Arrays inside keep their
 * array types (they are frozen too, and a `push` still throws): the SDKs' parameter types spell
 * their arrays mutable (Anthropic's `input_schema.required: Array<string>`, JSON Schema 7's
 * `required: string[]`), and a `readonly string[]` would not fit them, so a frozen definition is
 * handed to them as it is, without a copy.
 *
 * @example
 * const [def] = toolkit.toProviderDefs('anthropic');
 * def.input_schema.properties.city = { type: 'string' }; // does not compile (and throws at run time)
 * await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: [...toolkit.toProviderDefs('anthropic')] });
 */
export type Frozen<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends (infer E)[]
    ? Frozen<E>[]
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T;

/** A {@link JsonSchema} as toolwright hands it out: deep-frozen, every keyword readonly (see {@link Frozen}). */
export type ReadonlyJsonSchema = Frozen<JsonSchema>;

/** An {@link ObjectJsonSchema} as toolwright hands it out: deep-frozen, every keyword readonly (see {@link Frozen}). */
export type ReadonlyObjectJsonSchema = Frozen<ObjectJsonSchema>;
