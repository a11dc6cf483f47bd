import { agentTool, freshToolkit, names } from '../support/toolkit';

/** One tool per way a provider can refuse a schema, beside one every provider takes. */
function toolkitWithUnlowerableTools() {
  const toolkit = freshToolkit();
  toolkit.createToolGroup('extra', 'Extra tools', false);
  toolkit.registerTool(agentTool('fine', () => 'ok', undefined, { q: { type: 'string' } }));
  // a string map: OpenAI strict mode has no form for it, Gemini neither
  toolkit.registerTool(agentTool('tag_map', () => 'ok', undefined, { tags: { type: 'object', additionalProperties: { type: 'string' } } }));
  // a recursive $ref: Gemini has no $ref to keep it
  toolkit.registerTool({
    name: 'tree',
    description: 'A tree',
    parameters: {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    },
    execute: () => 'ok',
  });
  return toolkit;
}

describe('toProviderDefs leaves out a tool a provider cannot take, and says so', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => (warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined)));
  afterEach(() => warn.mockRestore());

  test('each provider gets every tool it can take; lowerTools names the others with the reason', () => {
    const toolkit = toolkitWithUnlowerableTools();
    expect(names(toolkit.toProviderDefs('anthropic'))).toEqual(['fine', 'tag_map', 'tree']);
    expect(toolkit.toProviderDefs('openai').map((d) => d.function.name)).toEqual(['fine', 'tag_map', 'tree']);
    expect(toolkit.toProviderDefs('openai', { strict: true }).map((d) => d.function.name)).toEqual(['fine', 'tree']);
    expect(names(toolkit.toProviderDefs('gemini'))).toEqual(['fine']);

    const gemini = toolkit.lowerTools('gemini');
    expect(gemini.omitted.map((o) => [o.tool, o.provider, o.code])).toEqual([
      ['tag_map', 'gemini', 'INVALID_DEFINITION'],
      ['tree', 'gemini', 'INVALID_DEFINITION'],
    ]);
    expect(gemini.omitted[1].change).toMatch(/^left out of the Gemini definitions: .*recursive/);
    // the omissions are in the report too, at their tool's place
    expect(gemini.report.filter((c) => c.omitted)).toEqual(gemini.omitted);
    expect(Object.isFrozen(gemini.omitted)).toBe(true);
    const strict = toolkit.lowerTools('openai', { strict: true });
    expect(strict.omitted).toEqual([expect.objectContaining({ tool: 'tag_map', provider: 'openai', code: 'INVALID_DEFINITION', path: '', omitted: true })]);
  });

  test('one TOOLWRIGHT_TOOL_SKIPPED warning per tool and provider form, not one per change of the active set', () => {
    const toolkit = toolkitWithUnlowerableTools();
    toolkit.toProviderDefs('gemini');
    toolkit.registerTool(agentTool('later', () => 'ok', { group: 'extra' }, { q: { type: 'string' } }));
    toolkit.updateToolGroups(['extra'], true);
    expect(names(toolkit.toProviderDefs('gemini'))).toEqual(['fine', 'later']);
    toolkit.session('s1').toProviderDefs('gemini');
    const skipped = warn.mock.calls.filter(([, options]) => (options as { code?: string })?.code === 'TOOLWRIGHT_TOOL_SKIPPED').map(([message]) => message);
    expect(skipped).toEqual([expect.stringMatching(/^toProviderDefs left tool 'tag_map' out: left out of the Gemini definitions/), expect.stringMatching(/'tree'/)]);
    toolkit.toProviderDefs('openai', { strict: true });
    expect(warn).toHaveBeenCalledTimes(3);
  });

  test('an unknown provider still throws', () => {
    const toolkit = toolkitWithUnlowerableTools();
    expect(() => toolkit.toProviderDefs('cohere' as 'openai')).toThrow(expect.objectContaining({ code: 'UNKNOWN_PROVIDER' }));
  });
});
