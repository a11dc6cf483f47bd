import type { ProviderName } from './provider-definitions';

/**
 * The tool-name rule of each provider, as each vendor documents it.
 * - OpenAI (Chat and Responses): a-z, A-Z, 0-9, `_` and `-`, at most 64 characters.
 * - Anthropic: the same characters (no dots), at most 128 characters.
 * - Gemini: starts with a letter or `_`; then letters, digits, `_`, `.`, `:` and `-`; at most
 *   64 characters.
 * - MCP (SEP-986, lenient): letters, digits, `_`, `-` and `.`, 1 to 128 characters.
 *
 * @example
 * PROVIDER_NAME_RULES.openai.pattern.test('get_weather'); // true
 */
export const PROVIDER_NAME_RULES: Readonly<
  Record<ProviderName, Readonly<{ pattern: RegExp; description: string }>>
> = Object.freeze({
  openai: Object.freeze({
    pattern: /^[a-zA-Z0-9_-]{1,64}$/,
    description: 'letters, digits, "_" and "-" only, 1 to 64 characters',
  }),
  'openai-responses': Object.freeze({
    pattern: /^[a-zA-Z0-9_-]{1,64}$/,
    description: 'letters, digits, "_" and "-" only, 1 to 64 characters',
  }),
  anthropic: Object.freeze({
    pattern: /^[a-zA-Z0-9_-]{1,128}$/,
    description: 'letters, digits, "_" and "-" only (no dots), 1 to 128 characters',
  }),
  gemini: Object.freeze({
    pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
    description:
      'starts with a letter or "_", then letters, digits, "_", ".", ":" and "-", at most 64 characters',
  }),
  mcp: Object.freeze({
    pattern: /^[a-zA-Z0-9_.-]{1,128}$/,
    description: 'letters, digits, "_", "-" and "." only, 1 to 128 characters',
  }),
});

/**
 * The keywords OpenAI Structured Outputs (strict mode) documents as supported. Anything else
 * is dropped by the strict lowering and reported. (`minLength`, `maxLength`, `uniqueItems`,
 * `minProperties`, `maxProperties`, `patternProperties`, `default`, `examples`, `not`… are not
 * on the list.)
 *
 * @example
 * OPENAI_STRICT_KEYWORDS.has('pattern'); // true
 */
export const OPENAI_STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  // structure
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  '$ref',
  '$defs',
  'definitions',
  // annotations
  'description',
  'title',
  // strings
  'pattern',
  'format',
  // numbers
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  // arrays
  'minItems',
  'maxItems',
]);

/**
 * The string formats OpenAI strict mode supports; other `format`s are dropped and reported.
 *
 * @example
 * OPENAI_STRICT_FORMATS.has('date-time'); // true
 */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * Size limits of an OpenAI strict schema, per the Structured Outputs guide. `maxNestingDepth`
 * counts object levels, the root object being level 1.
 *
 * @example
 * OPENAI_STRICT_LIMITS.maxNestingDepth; // 10
 */
export const OPENAI_STRICT_LIMITS = Object.freeze({
  /** Object levels, the root object included. */
  maxNestingDepth: 10,
  /** Object properties in the whole schema. */
  maxProperties: 5000,
  /** Enum values across all enums of the schema. */
  maxEnumValues: 1000,
  /** Characters of all property names, definition names, enum and const values together. */
  maxTotalStringLength: 120_000,
});

/**
 * The keywords of Gemini's `Schema` object (an OpenAPI 3.0 subset). The Gemini lowering keeps
 * only these, anywhere in the schema, and reports every keyword it drops.
 *
 * @example
 * GEMINI_SCHEMA_KEYWORDS.has('additionalProperties'); // false
 */
export const GEMINI_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'properties',
  'required',
  'propertyOrdering',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'default',
  'example',
]);

/**
 * The `format`s Gemini accepts, per type, as its `Schema` reference lists them ("for NUMBER type:
 * float, double; for INTEGER type: int32, int64; for STRING type: enum, date-time"). The API
 * rejects any other (`format: only 'enum' and 'date-time' are supported for STRING type`), so the
 * Gemini lowering drops it and says it in the description instead (`(format: uri)`).
 *
 * @example
 * GEMINI_FORMATS.string.has('uri'); // false
 */
export const GEMINI_FORMATS: Readonly<Record<'string' | 'number' | 'integer', ReadonlySet<string>>> = Object.freeze({
  string: new Set(['enum', 'date-time']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
});
