import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { JsonSchema, ObjectJsonSchema, ToolManifest, ToolSchema } from '../../src';
import { lowerToolSchemas, restoreArguments, type ProviderName } from '../../src/schema/lowering';
import { checkGemini, checkObjectRoot, checkOpenAIStrict } from '../schema/lowering/provider-rule-checks';

const golden = JSON.parse(readFileSync(path.join(__dirname, 'golden/manifest.json'), 'utf8')) as ToolManifest;

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

describe('golden manifest schemas through every provider lowering', () => {
  const tools = toolsOf(golden);

  it('covers a meaningful number of tools', () => {
    expect(tools.length).toBeGreaterThan(10);
  });

  it.each<[ProviderName, boolean]>([
    ['openai', false],
    ['openai', true],
    ['openai-responses', true],
    ['anthropic', false],
    ['gemini', false],
    ['mcp', false],
  ])('%s (strict: %s) accepts every lowered schema', (provider, strict) => {
    const lowerable = tools.filter((tool) => {
      try {
        lowerToolSchemas([tool], provider, { strict });
        return true;
      } catch (error) {
        // strict mode and Gemini cannot express some shapes (maps, recursion): they must say so clearly
        expect((error as Error).message).toMatch(new RegExp(tool.name));
        return false;
      }
    });
    expect(lowerable.length).toBeGreaterThan(tools.length / 2);
    const { definitions } = lowerToolSchemas(lowerable, provider, { strict });
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
