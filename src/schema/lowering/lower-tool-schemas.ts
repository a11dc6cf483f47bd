import type { JsonSchema, JsonSchemaDefinition, ObjectJsonSchema } from '../../model/json-schema';
import type { ToolSchema } from '../../model/tool-types';
import { ToolkitError } from '../../errors';
import { lowerGemini } from './lower-gemini';
import { lowerOpenAIStrict } from './lower-openai-strict';
import type {
  LoweringChange,
  LoweringOmission,
  LoweringOptions,
  LoweringResult,
  ProviderName,
  ProviderToolDefinitionMap,
} from './provider-definitions';
import { DRAFT_07, schemaDialect } from '../schema-dialect';
import { PROVIDER_NAME_RULES } from './provider-rules';
import {
  branchPath,
  cloneJson,
  deepFreeze,
  itemsPath,
  objectSchemaOf,
  propertyPath,
  type Reporter,
  typeList,
} from './schema-utils';

const PROVIDER_LABELS: Readonly<Record<ProviderName, string>> = {
  openai: 'OpenAI (Chat Completions)',
  'openai-responses': 'OpenAI (Responses API)',
  anthropic: 'Anthropic',
  gemini: 'Gemini',
  mcp: 'MCP',
};

/**
 * Checks a tool name against a provider's documented name pattern and length (OpenAI: `^[a-zA-Z0-9_-]{1,64}$`).
 *
 * @example
 * assertToolName('search.web', 'anthropic'); // throws INVALID_NAME: dots are not allowed
 * @throws ToolkitError `INVALID_NAME` naming the tool, the provider, the pattern and a fix;
 *   `UNKNOWN_PROVIDER` for a provider name it does not know.
 */
export function assertToolName(name: string, provider: ProviderName): void {
  const rule = PROVIDER_NAME_RULES[provider];
  if (rule === undefined) throw unknownProvider(provider);
  if (rule.pattern.test(name)) return;
  const limit = provider === 'anthropic' || provider === 'mcp' ? 128 : 64;
  let suggestion = name.replace(provider === 'gemini' ? /[^a-zA-Z0-9_.:-]/g : provider === 'mcp' ? /[^a-zA-Z0-9_.-]/g : /[^a-zA-Z0-9_-]/g, '_');
  if (provider === 'gemini' && !/^[a-zA-Z_]/.test(suggestion)) suggestion = `_${suggestion}`;
  suggestion = suggestion.slice(0, limit) || 'tool';
  throw new ToolkitError(
    'INVALID_NAME',
    `Tool "${name}" cannot be sent to ${PROVIDER_LABELS[provider]}: its name must match ${String(rule.pattern)} ` +
      `(${rule.description}). Rename the tool, e.g. @Tool({ name: '${suggestion}' }) or the AgentTool's name.`,
    { tool: name },
  );
}

/** The default {@link LoweringOptions.examplesBudget}: the most characters examples add to a description. */
const DEFAULT_EXAMPLES_BUDGET = 1000;

const HEADING = '\n\nExamples of arguments:';

/**
 * `tool.description` with its examples appended, one compact JSON line each, for providers without
 * an examples field. Whole examples only (a cut JSON text would teach the model a broken call):
 * those that do not fit within `budget` characters, counted with the heading, are left out, and
 * the report says which and why.
 */
function describeWithExamples(tool: ToolSchema, budget: number, report: Reporter): string {
  const examples = tool.examples ?? [];
  if (examples.length === 0) return tool.description;
  let text = HEADING;
  const dropped: number[] = [];
  examples.forEach((example, index) => {
    const line = `\n${JSON.stringify(example)}`;
    if (text.length + line.length <= budget) text += line;
    else dropped.push(index);
  });
  if (dropped.length > 0) {
    const which = dropped.map((i) => `#${i}`).join(', ');
    report('', `examples ${which} left out of the description: over the ${budget}-character examples budget`);
  }
  if (dropped.length === examples.length) return tool.description;
  report('', `${examples.length - dropped.length} example(s) rendered into the description (the provider has no examples field)`);
  return tool.description + text;
}

function unknownProvider(provider: string): ToolkitError {
  return new ToolkitError(
    'UNKNOWN_PROVIDER',
    `Unknown provider "${provider}"; expected one of ${Object.keys(PROVIDER_NAME_RULES).join(', ')}.`,
  );
}

function assertObjectRoot(tool: ToolSchema, provider: ProviderName): void {
  const p = tool.parameters as JsonSchema | undefined;
  if (p === undefined || p === null || typeof p !== 'object' || p.type !== 'object') {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `Tool "${tool.name}" cannot be sent to ${PROVIDER_LABELS[provider]}: its parameters schema must be an ` +
        'object schema ({ type: "object", properties: {...} }). Wrap a single value in a property.',
      { tool: tool.name },
    );
  }
}

/**
 * The non-strict OpenAI form: a copy without a root `$schema`, and with `items: {}` on arrays
 * that have none (OpenAI rejects "array schema missing items" even without strict mode).
 */
function lowerOpenAIPlain(schema: ObjectJsonSchema, report: Reporter): ObjectJsonSchema {
  const copy = cloneJson(schema);
  if (copy.$schema !== undefined) {
    delete copy.$schema;
    report('', 'dropped $schema');
  }
  const visit = (node: JsonSchemaDefinition, path: string): void => {
    if (typeof node === 'boolean') return;
    const types = typeList(node);
    if (types.includes('array') && node.items === undefined) {
      node.items = {};
      report(path, 'added items: {} (OpenAI rejects arrays without items)');
    }
    for (const [name, child] of Object.entries(node.properties ?? {})) visit(child, propertyPath(path, name));
    const tuple = Array.isArray(node.items) ? node.items : node.prefixItems;
    if (node.items !== undefined && !Array.isArray(node.items)) visit(node.items, itemsPath(path));
    tuple?.forEach((member, i) => visit(member, `${path}[${i}]`));
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
      node[keyword]?.forEach((branch, i) => visit(branch, branchPath(path, keyword, i)));
    }
    for (const keyword of ['$defs', 'definitions'] as const) {
      for (const [name, def] of Object.entries(node[keyword] ?? {})) visit(def, propertyPath(path, `${keyword}.${name}`));
    }
  };
  visit(copy, '');
  return copy;
}

/**
 * The MCP form: the schema as it is, with `$schema` declared when the schema is draft-07 without
 * saying so (draft-07's tuple form): MCP 2025-11-25 reads a schema without `$schema` as 2020-12.
 * A property whose schema is a boolean is written as the object schema that means the same
 * (`true` as `{}`, `false` as `{ not: {} }`): the MCP SDK's clients want an object for each of
 * `inputSchema.properties`.
 */
function lowerMcp(schema: ObjectJsonSchema, report: Reporter): ObjectJsonSchema {
  const copy = cloneJson(schema);
  const found = schemaDialect(schema);
  if (copy.$schema === undefined && 'dialect' in found && found.dialect === 'draft-07') {
    copy.$schema = DRAFT_07;
    report('', `added $schema ${DRAFT_07} (the schema uses draft-07's tuple form; MCP reads a schema without $schema as 2020-12)`);
  }
  for (const [name, property] of Object.entries(copy.properties)) {
    if (typeof property !== 'boolean') continue;
    const object = (copy.properties[name] = objectSchemaOf(property));
    report(name, `the schema ${String(property)} became ${JSON.stringify(object)} (MCP clients want an object schema for each property)`);
  }
  return copy;
}

/**
 * Lowers one tool for one provider. See {@link lowerToolSchemas}.
 *
 * @example
 * const { definition, report } = lowerToolSchema(tool, 'gemini');
 * @throws ToolkitError `INVALID_NAME`, `INVALID_DEFINITION`, `UNKNOWN_PROVIDER`.
 */
export function lowerToolSchema<P extends ProviderName>(
  tool: ToolSchema,
  provider: P,
  options: LoweringOptions = {},
): { definition: ProviderToolDefinitionMap[P]; report: LoweringChange[] } {
  assertToolName(tool.name, provider);
  assertObjectRoot(tool, provider);
  const report: LoweringChange[] = [];
  const reporter: Reporter = (path, change) => report.push({ tool: tool.name, path, change });
  const { name } = tool;
  const strict = options.strict === true;
  const description = provider === 'anthropic' ? tool.description : describeWithExamples(tool, options.examplesBudget ?? DEFAULT_EXAMPLES_BUDGET, reporter);
  let definition: ProviderToolDefinitionMap[ProviderName];
  switch (provider as ProviderName) {
    case 'openai': {
      const parameters = strict ? lowerOpenAIStrict(name, tool.parameters, reporter) : lowerOpenAIPlain(tool.parameters, reporter);
      definition = { type: 'function', function: strict ? { name, description, parameters, strict: true } : { name, description, parameters } };
      break;
    }
    case 'openai-responses': {
      const parameters = strict ? lowerOpenAIStrict(name, tool.parameters, reporter) : lowerOpenAIPlain(tool.parameters, reporter);
      definition = { type: 'function', name, description, parameters, strict };
      break;
    }
    case 'anthropic':
      definition = { name, description, input_schema: cloneJson(tool.parameters), ...(tool.examples?.length ? { input_examples: cloneJson(tool.examples) as { [key: string]: unknown }[] } : {}) };
      break;
    case 'gemini': {
      const parameters = lowerGemini(name, tool.parameters, reporter);
      definition = parameters === undefined ? { name, description } : { name, description, parameters };
      break;
    }
    case 'mcp':
      definition = { name, description, inputSchema: lowerMcp(tool.parameters, reporter) };
      break;
    default:
      throw unknownProvider(provider);
  }
  return { definition: deepFreeze(definition) as ProviderToolDefinitionMap[P], report };
}

/**
 * What {@link lowerToolOrOmit} gives: the definition and the report, or, for a tool that
 * cannot be lowered for the provider, the omission (also the last entry of `report`) and the error.
 */
export type LoweredOrOmitted<D> =
  | { readonly definition: D; readonly report: readonly LoweringChange[]; readonly omission?: undefined; readonly error?: undefined }
  | { readonly definition?: undefined; readonly report: readonly LoweringChange[]; readonly omission: LoweringOmission; readonly error: ToolkitError };

/**
 * {@link lowerToolSchema}, except that a tool the provider cannot take (`INVALID_NAME`,
 * `INVALID_DEFINITION`) is not thrown but described as a {@link LoweringOmission}: every place
 * that lowers a list of tools leaves such a tool out and reports it the same way.
 *
 * @example
 * const lowered = lowerToolOrOmit(tool, 'gemini');
 * if (lowered.omission) onReport(lowered.report); else definitions.push(lowered.definition);
 * @throws ToolkitError `UNKNOWN_PROVIDER` for a provider name it does not know.
 */
export function lowerToolOrOmit<P extends ProviderName>(tool: ToolSchema, provider: P, options: LoweringOptions = {}): LoweredOrOmitted<ProviderToolDefinitionMap[P]> {
  try {
    return lowerToolSchema(tool, provider, options);
  } catch (error) {
    if (!ToolkitError.is(error) || (error.code !== 'INVALID_NAME' && error.code !== 'INVALID_DEFINITION')) throw error;
    const omission: LoweringOmission = {
      tool: tool.name,
      path: '',
      change: `left out of the ${PROVIDER_LABELS[provider]} definitions: ${error.message}`,
      omitted: true,
      provider,
      code: error.code,
    };
    return { report: [omission], omission, error };
  }
}

/**
 * Lowers canonical tool schemas (what `toolkit.getToolSchemas()` returns) to a provider's tool
 * definitions, and reports every change it made per tool. Pure: the input schemas are never
 * mutated; the definitions are fresh, deeply frozen objects.
 *
 * - `openai` / `openai-responses`: Chat Completions `{ type, function }` or Responses
 *   `{ type, name, parameters, strict }`. Without `strict`, the schema passes through (a root
 *   `$schema` is dropped). With `strict: true`: every property required, optionals as `null`
 *   unions, `additionalProperties: false` on every object, unsupported keywords (`default`,
 *   `minLength`, `maxLength`, unknown formats…) dropped; size limits checked.
 * - `anthropic`: `{ name, description, input_schema }` (object root checked).
 * - `gemini`: a `FunctionDeclaration` whose `parameters` use only Gemini's keywords: `$ref`s
 *   inlined, `[T, 'null']` as `nullable`, exclusive bounds made inclusive, `const` as `enum`,
 *   arrays always with `items`, everything else dropped.
 * - `mcp`: `{ name, description, inputSchema }` (`$schema` added to a draft-07 schema that does not
 *   declare it: MCP reads a schema without `$schema` as draft 2020-12).
 *
 * Draft 2020-12 keywords: tuples (`prefixItems`, or draft-07's `items: [...]`) become one `items`
 * schema with `maxItems` for OpenAI strict and Gemini; `$defs` and local `$ref`s are kept (strict)
 * or inlined (Gemini); `unevaluatedProperties` of an object becomes `additionalProperties: false`
 * in strict mode; keywords a provider lacks (`dependentRequired`, `unevaluatedItems`, `$anchor`…)
 * are dropped, each reported. toolwright still validates calls against the canonical schema.
 *
 * A tool that cannot be expressed for the provider — a name that breaks its pattern, nesting or
 * size beyond its limits, recursive references for Gemini, maps in strict mode… — is left out of
 * `definitions` and listed in `omitted` (and in `report`, with `omitted: true`), with the error
 * that says why; the other tools are lowered as usual. `lowerToolSchema` (one tool) throws it.
 *
 * @example
 * const { definitions, report, omitted } = lowerToolSchemas(toolkit.getToolSchemas(), 'openai', { strict: true });
 * // report: [{ tool: 'get_weather', path: 'days', change: 'made required and nullable for strict mode' }, …]
 * // omitted: [{ tool: 'tag_map', provider: 'openai', code: 'INVALID_DEFINITION', change: 'left out of … a map …', … }]
 * @throws ToolkitError `UNKNOWN_PROVIDER` for a provider name it does not know.
 */
export function lowerToolSchemas<P extends ProviderName>(
  tools: readonly ToolSchema[],
  provider: P,
  options: LoweringOptions = {},
): LoweringResult<ProviderToolDefinitionMap[P]> {
  const definitions: ProviderToolDefinitionMap[P][] = [];
  const report: LoweringChange[] = [];
  const omitted: LoweringOmission[] = [];
  for (const tool of tools) {
    const lowered = lowerToolOrOmit(tool, provider, options);
    if (lowered.omission !== undefined) omitted.push(lowered.omission);
    else definitions.push(lowered.definition);
    for (const change of lowered.report) report.push(change);
  }
  return { definitions, report, omitted };
}
