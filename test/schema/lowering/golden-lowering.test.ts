import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { JsonSchema, ObjectJsonSchema, ToolManifest, ToolSchema } from '../../../src';
import { lowerToolSchemas, restoreArguments, type ProviderName } from '../../../src/schema/lowering';
import { checkGemini, checkObjectRoot, checkOpenAIStrict } from './provider-rule-checks';

const golden = JSON.parse(readFileSync(path.join(__dirname, '../../build/golden/manifest.json'), 'utf8')) as ToolManifest;

/** The canonical tool schema the toolkit builds from a manifest method: its model parameters. */
function toolsOf(manifest: ToolManifest): ToolSchema[] {
  const tools: ToolSchema[] = [];
  for (const [className, entry] of Object.entries(manifest.classes)) {
    for (const [method, info] of Object.entries(entry.methods)) {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const param of info.params) {
        if (param.kind !== 'model') continue;
        properties[param.name] = param.schema ?? {};
        if (!param.optional) required.push(param.name);
      }
      const parameters: ObjectJsonSchema = { type: 'object', properties, additionalProperties: false, ...(required.length ? { required } : {}) };
      tools.push({ name: `${className}_${method}`.slice(0, 64), description: info.description ?? method, parameters });
    }
  }
  return tools;
}

/** Every tool of the golden manifest: a tool that went missing from it would hide from every check below. */
const ALL_TOOLS = [
  'AliasedService_echo',
  'AliasedService_repeat',
  'CrmService_addNote',
  'CrmService_count',
  'CrmService_createContact',
  'CrmService_exportContacts',
  'CrmService_search',
  'CrmService_setCategories',
  'CrmService_tuple',
  'GenericStore_get',
  'GenericWriter_put',
  'PackageService_list',
  'PackageService_ping',
  'ReminderService_schedule',
  'WeatherService_forecast',
  'WeatherService_getWeather',
  'WeatherService_stations',
  'WeatherService_weatherAt',
];

/** Why OpenAI strict mode leaves a tool out: the schema path and what it cannot express there. */
const STRICT_OMISSIONS: Readonly<Record<string, RegExp>> = {
  // `attributes: Record<string, string | number | boolean>`: a map, whose free-form keys strict mode cannot declare
  CrmService_createContact: /at "contact\.attributes" is a map/,
  // a recursive `Category`: the generator leaves the reference in `children` unexpanded, an object without properties
  CrmService_setCategories: /at "root\.children\[\]" is a free-form object/,
  // `anything: unknown`: the empty schema, without a type
  CrmService_tuple: /at "anything" has no type/,
  // `readings: Record<string, number>`: a map
  WeatherService_stations: /at "readings" is a map/,
};

/** Why Gemini leaves a tool out: the same four shapes, each worded for Gemini's own rules. */
const GEMINI_OMISSIONS: Readonly<Record<string, RegExp>> = {
  CrmService_createContact: /at "contact\.attributes" is an object without properties/,
  CrmService_setCategories: /at "root\.children\[\]" is an object without properties/,
  CrmService_tuple: /at "anything" has no type/,
  WeatherService_stations: /at "readings" is an object without properties/,
};

describe('golden manifest schemas through every provider lowering', () => {
  const tools = toolsOf(golden);

  it('covers every tool of the golden manifest', () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS);
  });

  it.each<[ProviderName, boolean, Readonly<Record<string, RegExp>>]>([
    ['openai', false, {}],
    ['openai', true, STRICT_OMISSIONS],
    ['openai-responses', true, STRICT_OMISSIONS],
    ['anthropic', false, {}],
    ['gemini', false, GEMINI_OMISSIONS],
    ['mcp', false, {}],
  ])('%s (strict: %s) lowers exactly the expressible tools, each schema within the provider rules', (provider, strict, omissions) => {
    const { definitions, omitted } = lowerToolSchemas(tools, provider, { strict });
    // a tool it cannot express is left out, and says why: exactly the expected ones, for the expected reason
    expect(omitted.map((omission) => omission.tool).sort()).toEqual(Object.keys(omissions).sort());
    for (const omission of omitted) {
      expect(omission).toMatchObject({ provider, code: 'INVALID_DEFINITION', omitted: true });
      expect(omission.change).toMatch(omissions[omission.tool]!);
    }
    const names = definitions.map((definition) => ('function' in definition ? definition.function.name : definition.name));
    expect(names.sort()).toEqual(ALL_TOOLS.filter((name) => !(name in omissions)));
    for (const definition of definitions) {
      const params = 'function' in definition ? definition.function.parameters : 'input_schema' in definition ? definition.input_schema : 'inputSchema' in definition ? definition.inputSchema : 'parameters' in definition ? definition.parameters : undefined;
      if (params === undefined) continue; // Gemini omits parameters for a tool without any
      if (provider === 'gemini') expect(checkGemini(params)).toEqual([]);
      else if (strict) expect(checkOpenAIStrict(params)).toEqual([]);
      else expect(checkObjectRoot(params)).toEqual([]);
    }
  });

  it('maps strict-mode nulls back to absent optionals for every tool', () => {
    for (const tool of tools) {
      const optional = Object.keys(tool.parameters.properties).filter((k) => !(tool.parameters.required ?? []).includes(k));
      const args = Object.fromEntries(optional.map((k) => [k, null]));
      expect(restoreArguments(tool.parameters, args, 'openai', { strict: true })).toEqual({});
    }
  });
});
