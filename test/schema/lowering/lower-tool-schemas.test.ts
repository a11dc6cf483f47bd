import type { JsonSchema, ObjectJsonSchema, ToolSchema } from '../../../src';
import type { ToolkitErrorCode } from '../../../src/errors';
import {
  type GeminiSchema,
  type LoweringOptions,
  lowerToolSchema,
  lowerToolSchemas,
  type ProviderName,
  type ProviderToolDefinition,
} from '../../../src/schema/lowering';
import { thrown } from '../../support/errors';
import { deepFreeze } from '../../support/schemas';
import { FIXTURES, fixture } from './fixtures';
import {
  checkGemini,
  checkObjectRoot,
  checkOpenAIStrict,
  NAME_PATTERNS,
  walkSchema,
} from './provider-rule-checks';

function unpack(def: ProviderToolDefinition): { name: string; parameters: unknown } {
  if ('function' in def) return { name: def.function.name, parameters: def.function.parameters };
  if ('input_schema' in def) return { name: def.name, parameters: def.input_schema };
  if ('inputSchema' in def) return { name: def.name, parameters: def.inputSchema };
  return { name: def.name, parameters: def.parameters };
}

/** OpenAI without strict: object root, no `$schema`, arrays with items. */
function checkOpenAIPlain(parameters: unknown): string[] {
  const errors = checkObjectRoot(parameters);
  if ((parameters as JsonSchema).$schema !== undefined) errors.push('$schema');
  walkSchema(parameters, (node, path) => {
    if (node.type === 'array' && node.items === undefined) errors.push(`${path}: array without items`);
  });
  return errors;
}

function isFrozenDeep(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isFrozenDeep);
}

const CASES: Array<[ProviderName, LoweringOptions]> = [
  ['openai', {}],
  ['openai', { strict: true }],
  ['openai-responses', {}],
  ['openai-responses', { strict: true }],
  ['anthropic', {}],
  ['gemini', {}],
  ['mcp', {}],
];

describe('every lowering of every fixture obeys the provider rules', () => {
  const before = JSON.stringify(FIXTURES);

  test.each(CASES)('%s %j', (provider, options) => {
    const { definitions, report } = lowerToolSchemas(FIXTURES, provider, options);
    expect(definitions).toHaveLength(FIXTURES.length);
    definitions.forEach((def, i) => {
      const { name, parameters } = unpack(def);
      expect(name).toBe(FIXTURES[i].name);
      expect(name).toMatch(NAME_PATTERNS[provider]);
      const errors =
        provider === 'gemini'
          ? checkGemini(parameters)
          : provider.startsWith('openai')
            ? options.strict
              ? checkOpenAIStrict(parameters)
              : checkOpenAIPlain(parameters)
            : checkObjectRoot(parameters);
      expect({ tool: name, errors }).toEqual({ tool: name, errors: [] });
      expect(isFrozenDeep(def)).toBe(true);
    });
    for (const change of report) expect(FIXTURES.map((t) => t.name)).toContain(change.tool);
    // the inputs are deep-frozen and unchanged
    expect(JSON.stringify(FIXTURES)).toBe(before);
  });

  test('anthropic and mcp pass the schema through unchanged, with an empty report', () => {
    for (const provider of ['anthropic', 'mcp'] as const) {
      const { definitions, report } = lowerToolSchemas(FIXTURES, provider);
      expect(report).toEqual([]);
      definitions.forEach((def, i) => expect(unpack(def).parameters).toEqual(FIXTURES[i].parameters));
    }
  });

  test('the Chat and Responses forms carry the same parameters', () => {
    for (const strict of [false, true]) {
      const chat = lowerToolSchemas(FIXTURES, 'openai', { strict });
      const responses = lowerToolSchemas(FIXTURES, 'openai-responses', { strict });
      expect(responses.report).toEqual(chat.report);
      responses.definitions.forEach((def, i) => {
        expect(def.parameters).toEqual(chat.definitions[i].function.parameters);
        expect(def.strict).toBe(strict);
      });
    }
  });
});

type Expected = Record<string, Array<[string, string]>>;

function reportByTool(provider: ProviderName, options: LoweringOptions): Expected {
  const out: Expected = {};
  for (const c of lowerToolSchemas(FIXTURES, provider, options).report) (out[c.tool] ??= []).push([c.path, c.change]);
  return out;
}

describe('the report lists each change', () => {
  test('OpenAI strict', () => {
    const closed: [string, string] = ['', 'added additionalProperties: false (strict mode)'];
    const optional = (path: string): [string, string] => [path, 'made required and nullable for strict mode'];
    expect(reportByTool('openai', { strict: true })).toEqual({
      primitives: [closed],
      get_weather: [
        ['days', 'dropped default (strict mode rejects it); noted it in the description'],
        optional('days'),
        optional('unit'),
        closed,
      ],
      enums: [['size', 'added type: integer, inferred from the enum values'], optional('size'), optional('level'), closed],
      nested: [
        optional('owner.contact.phone'),
        ['owner.contact', 'added additionalProperties: false (strict mode)'],
        optional('owner.contact'),
        ['owner', 'added additionalProperties: false (strict mode)'],
        optional('address.zip'),
        ['address', 'added additionalProperties: false (strict mode)'],
        optional('address'),
        closed,
      ],
      array_of_objects: [
        optional('lines[].note'),
        ['lines[]', 'added additionalProperties: false (strict mode)'],
        ['tags', 'dropped uniqueItems (not supported in strict mode)'],
        optional('tags'),
        closed,
      ],
      formats: [
        ['email', 'dropped minLength (not supported in strict mode)'],
        ['email', 'dropped maxLength (not supported in strict mode)'],
        ['url', 'dropped format "uri" (strict mode supports only date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid)'],
        closed,
      ],
      bounds: [closed],
      consts: [['kind', 'added type: string, inferred from the const values'], optional('version'), closed],
      nullables: [
        ['middle', 'nullable: true became a null union for strict mode'],
        optional('middle'),
        ['parent.anyOf[0]', 'added additionalProperties: false (strict mode)'],
        closed,
      ],
      refs: [['', 'dropped $schema (not supported in strict mode)'], optional('work'), optional('$defs.Address.zip')],
      no_params: [closed],
      unions: [['target', 'oneOf became anyOf (strict mode does not support oneOf)'], closed],
      annotations: [
        ['q', 'dropped examples (not supported in strict mode)'],
        ['q', 'dropped deprecated (not supported in strict mode)'],
        closed,
      ],
    });
  });

  test('Gemini', () => {
    expect(reportByTool('gemini', {})).toEqual({
      enums: [
        ['size', 'gemini: dropped enum of non-string values (Gemini enums are strings); listed them in the description'],
        ['level', 'gemini: dropped enum of non-string values (Gemini enums are strings); listed them in the description'],
      ],
      array_of_objects: [['tags', 'gemini: dropped uniqueItems']],
      formats: [
        ['email', 'gemini: dropped format email (Gemini accepts only enum, date-time for type string); noted it in the description'],
        ['id', 'gemini: dropped format uuid (Gemini accepts only enum, date-time for type string); noted it in the description'],
        ['url', 'gemini: dropped format uri (Gemini accepts only enum, date-time for type string); noted it in the description'],
      ],
      bounds: [
        ['temp', 'gemini: exclusiveMinimum 0 became minimum 0 (Gemini has no exclusive bounds; the bound is now inclusive)'],
        ['temp', 'gemini: exclusiveMaximum 100 became maximum 100 (Gemini has no exclusive bounds; the bound is now inclusive)'],
        ['step', 'gemini: dropped multipleOf'],
        ['ratio', 'gemini: dropped exclusiveMinimum 0.1 (minimum 0.2 is tighter)'],
      ],
      consts: [
        ['kind', 'gemini: const became enum'],
        ['kind', 'gemini: added type: string for the enum'],
        ['version', 'gemini: dropped const of non-string values (Gemini enums are strings); listed them in the description'],
      ],
      nullables: [
        ['nick', 'gemini: type [string, null] became type string with nullable: true'],
        ['parent', 'gemini: the null branch of anyOf became nullable: true'],
        ['parent', 'gemini: inlined the single remaining anyOf branch'],
      ],
      refs: [
        ['', 'gemini: dropped $schema'],
        ['home', 'gemini: inlined $ref #/$defs/Address'],
        ['home', 'gemini: dropped additionalProperties'],
        ['work', 'gemini: inlined $ref #/$defs/Address'],
        ['work', 'gemini: dropped additionalProperties'],
        ['', 'gemini: dropped additionalProperties'],
        ['', 'gemini: dropped $defs'],
      ],
      no_params: [
        ['', 'gemini: the tool has no parameters, so parameters is omitted (Gemini rejects an object without properties)'],
      ],
      unions: [
        ['target', 'gemini: oneOf became anyOf'],
        ['mixed', 'gemini: type [string, number] became anyOf'],
      ],
      annotations: [
        ['q', 'gemini: examples became example (the first one)'],
        ['q', 'gemini: dropped deprecated'],
      ],
    });
  });

  test('OpenAI without strict only drops $schema', () => {
    expect(reportByTool('openai', {})).toEqual({ refs: [['', 'dropped $schema']] });
  });
});

describe('exact lowered forms', () => {
  const weather = [fixture('get_weather')];

  test('OpenAI Chat, strict', () => {
    expect(lowerToolSchemas(weather, 'openai', { strict: true }).definitions).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The get_weather tool',
          strict: true,
          parameters: {
            type: 'object',
            properties: {
              city: { type: 'string', description: 'City name' },
              days: { type: ['integer', 'null'], description: 'Forecast days (default: 3)', minimum: 1, maximum: 14 },
              unit: { type: ['string', 'null'], enum: ['C', 'F', null] },
            },
            required: ['city', 'days', 'unit'],
            additionalProperties: false,
          },
        },
      },
    ]);
  });

  test('OpenAI Chat without strict has no strict flag; Responses always has one', () => {
    const chat = lowerToolSchemas(weather, 'openai').definitions[0];
    expect(chat).toEqual({
      type: 'function',
      function: { name: 'get_weather', description: 'The get_weather tool', parameters: weather[0].parameters },
    });
    expect('strict' in chat.function).toBe(false);
    expect(lowerToolSchemas(weather, 'openai-responses').definitions[0]).toEqual({
      type: 'function',
      name: 'get_weather',
      description: 'The get_weather tool',
      parameters: weather[0].parameters,
      strict: false,
    });
  });

  test('optional objects and references become anyOf with null, the description hoisted', () => {
    const lowered = lowerToolSchema(fixture('refs'), 'openai', { strict: true }).definition.function.parameters;
    expect(lowered.properties?.work).toEqual({
      description: 'Office',
      anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }],
    });
    expect(lowered.properties?.home).toEqual({ $ref: '#/$defs/Address' });
    expect(lowered.$defs?.Address).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, zip: { type: ['string', 'null'] } },
      required: ['city', 'zip'],
      additionalProperties: false,
    });
  });

  test('Gemini: nullables, refs inlined, no parameters', () => {
    const [nullables, refs, none] = lowerToolSchemas(
      [fixture('nullables'), fixture('refs'), fixture('no_params')],
      'gemini',
    ).definitions;
    expect(nullables.parameters).toEqual({
      type: 'object',
      properties: {
        nick: { type: 'string', nullable: true },
        middle: { type: 'string', nullable: true },
        parent: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], nullable: true },
      },
      required: ['nick', 'parent'],
    });
    const address: GeminiSchema = {
      type: 'object',
      properties: { city: { type: 'string' }, zip: { type: 'string' } },
      required: ['city'],
    };
    expect(refs.parameters).toEqual({
      type: 'object',
      properties: { home: address, work: { ...address, description: 'Office' } },
      required: ['home'],
    });
    expect(none).toEqual({ name: 'no_params', description: 'The no_params tool' });
  });

  test('Gemini: exclusive bounds, const, non-string enums', () => {
    const [bounds, consts, enums] = lowerToolSchemas(
      [fixture('bounds'), fixture('consts'), fixture('enums')],
      'gemini',
    ).definitions;
    expect(bounds.parameters?.properties).toEqual({
      temp: { type: 'number', minimum: 0, maximum: 100 },
      step: { type: 'number', minimum: 0 },
      ratio: { type: 'number', minimum: 0.2 },
    });
    expect(consts.parameters?.properties).toEqual({
      kind: { type: 'string', enum: ['order'] },
      version: { type: 'integer', description: 'Allowed values: 2.' },
    });
    expect(enums.parameters?.properties?.size).toEqual({ type: 'integer', description: 'Allowed values: 1, 2, 3.' });
  });

  test('Gemini: formats it rejects move into the description, the ones it accepts stay', () => {
    const [formats] = lowerToolSchemas([fixture('formats')], 'gemini').definitions;
    expect(formats.parameters?.properties).toEqual({
      email: { type: 'string', minLength: 3, maxLength: 100, description: 'Format: email.' },
      when: { type: 'string', format: 'date-time' },
      id: { type: 'string', description: 'Format: uuid.' },
      url: { type: 'string', description: 'Format: uri.' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
    });
    const numbers = deepFreeze<ToolSchema>({
      name: 'numbers',
      description: 'Numbers',
      parameters: {
        type: 'object',
        properties: {
          ratio: { type: 'number', format: 'double', description: 'A ratio' },
          count: { type: 'integer', format: 'uint8', description: 'A count' },
          big: { type: 'integer', format: 'int64' },
          flag: { type: 'boolean', format: 'flag' },
          kind: { type: 'integer', enum: ['a', 'b'] },
        },
      },
    });
    const { definition, report } = lowerToolSchema(numbers, 'gemini');
    expect(definition.parameters?.properties).toEqual({
      ratio: { type: 'number', format: 'double', description: 'A ratio' },
      count: { type: 'integer', description: 'A count (format: uint8)' },
      big: { type: 'integer', format: 'int64' },
      flag: { type: 'boolean', description: 'Format: flag.' },
      kind: { type: 'integer', description: 'Allowed values: "a", "b".' },
    });
    expect(report.map((c) => c.change)).toEqual([
      'gemini: dropped format uint8 (Gemini accepts only int32, int64 for type integer); noted it in the description',
      'gemini: dropped format flag (Gemini accepts no format for type boolean); noted it in the description',
      'gemini: dropped enum on type integer (Gemini enums are strings); listed them in the description',
    ]);
    expect(checkGemini(definition.parameters)).toEqual([]);
  });

  test('OpenAI without strict gives arrays without items an empty items schema', () => {
    const tool = deepFreeze<ToolSchema>({
      name: 'loose',
      description: 'Loose',
      parameters: { type: 'object', properties: { list: { type: 'array' } } },
    });
    const { definition, report } = lowerToolSchema(tool, 'openai');
    expect(definition.function.parameters.properties).toEqual({ list: { type: 'array', items: {} } });
    expect(report).toEqual([{ tool: 'loose', path: 'list', change: 'added items: {} (OpenAI rejects arrays without items)' }]);
  });

  test('the definition types follow the provider', () => {
    const anthropic = lowerToolSchemas(FIXTURES, 'anthropic').definitions[0];
    const schema: ObjectJsonSchema = anthropic.input_schema;
    const gemini = lowerToolSchemas(FIXTURES, 'gemini').definitions[0];
    const parameters: GeminiSchema | undefined = gemini.parameters;
    const mcp = lowerToolSchemas(FIXTURES, 'mcp').definitions[0];
    // @ts-expect-error an Anthropic definition has no `function`
    expect(anthropic.function).toBeUndefined();
    expect([schema.type, parameters?.type, mcp.inputSchema.type]).toEqual(['object', 'object', 'object']);
  });
});

function expectToolkitError(fn: () => unknown, code: ToolkitErrorCode, ...parts: string[]): void {
  const error = thrown(fn, code);
  for (const part of parts) expect(error.message).toContain(part);
}

function named(name: string): ToolSchema {
  return deepFreeze({ name, description: 'd', parameters: { type: 'object', properties: {} } });
}

function withParams(parameters: ObjectJsonSchema, name = 'bad_tool'): ToolSchema {
  return deepFreeze({ name, description: 'd', parameters });
}

describe('definition-time errors', () => {
  test.each([
    ['search.web', 'openai', false],
    ['search.web', 'openai-responses', false],
    ['search.web', 'anthropic', false],
    ['search.web', 'gemini', true],
    ['search.web', 'mcp', true],
    ['ns:tool', 'gemini', true],
    ['9lives', 'gemini', false],
    ['9lives', 'openai', true],
    ['has space', 'mcp', false],
    ['x'.repeat(64), 'openai', true],
    ['x'.repeat(65), 'openai', false],
    ['x'.repeat(65), 'gemini', false],
    ['x'.repeat(128), 'anthropic', true],
    ['x'.repeat(129), 'anthropic', false],
    ['', 'mcp', false],
  ] as Array<[string, ProviderName, boolean]>)('name %j for %s accepted: %s', (name, provider, ok) => {
    expect(NAME_PATTERNS[provider].test(name)).toBe(ok);
    if (ok) expect(() => lowerToolSchema(named(name), provider)).not.toThrow();
    else expectToolkitError(() => lowerToolSchema(named(name), provider), 'INVALID_NAME', `"${name}"`, String(NAME_PATTERNS[provider]), 'Rename');
    // a list leaves such a tool out and says why
    const lowered = lowerToolSchemas([named(name), named('fine')], provider);
    expect(lowered.definitions).toHaveLength(ok ? 2 : 1);
    expect(lowered.omitted.map((o) => [o.tool, o.provider, o.code])).toEqual(ok ? [] : [[name, provider, 'INVALID_NAME']]);
  });

  test('the name error names the provider and suggests a valid name', () => {
    expectToolkitError(() => lowerToolSchema(named('search.web'), 'anthropic'), 'INVALID_NAME', 'Anthropic', "name: 'search_web'");
    expectToolkitError(() => lowerToolSchema(named('9lives'), 'gemini'), 'INVALID_NAME', 'Gemini', "name: '_9lives'");
  });

  function nestedObjects(levels: number): ObjectJsonSchema {
    let inner: JsonSchema = { type: 'object', properties: { leaf: { type: 'string' } }, required: ['leaf'] };
    for (let i = 1; i < levels; i++) inner = { type: 'object', properties: { child: inner }, required: ['child'] };
    return inner as ObjectJsonSchema;
  }

  test('OpenAI strict: 10 object levels pass, 11 are rejected', () => {
    const ok = lowerToolSchema(withParams(nestedObjects(10)), 'openai', { strict: true });
    expect(checkOpenAIStrict(ok.definition.function.parameters)).toEqual([]);
    expectToolkitError(
      () => lowerToolSchema(withParams(nestedObjects(11)), 'openai', { strict: true }),
      'INVALID_DEFINITION',
      '"bad_tool"',
      '11 levels',
      'at most 10',
      'strict: false',
    );
    // without strict there is no such limit
    expect(() => lowerToolSchema(withParams(nestedObjects(11)), 'openai')).not.toThrow();
  });

  test('OpenAI strict: more than 5000 properties in all are rejected', () => {
    const properties: Record<string, JsonSchema> = {};
    for (let i = 0; i < 5001; i++) properties[`p${i}`] = { type: 'string' };
    expectToolkitError(
      () => lowerToolSchema(withParams({ type: 'object', properties }), 'openai', { strict: true }),
      'INVALID_DEFINITION',
      '5001 object properties',
      'at most 5000',
    );
  });

  test.each([
    ['a map', { m: { type: 'object', additionalProperties: { type: 'number' } } }, '"m"', 'map'],
    ['a free-form object', { o: { type: 'object' } }, '"o"', 'free-form object'],
    ['an array without items', { a: { type: 'array' } }, '"a"', 'array without items'],
    ['allOf', { x: { allOf: [{ type: 'string' }, { minLength: 1 }] } }, '"x"', 'allOf'],
    ['an untyped schema', { u: { description: 'anything' } }, '"u"', 'no type'],
  ] as Array<[string, Record<string, JsonSchema>, string, string]>)('OpenAI strict rejects %s', (_label, properties, path, what) => {
    expectToolkitError(
      () => lowerToolSchema(withParams({ type: 'object', properties }), 'openai', { strict: true }),
      'INVALID_DEFINITION',
      path,
      what,
    );
  });

  test('Gemini rejects recursive and unknown references and nested objects without properties', () => {
    const recursive: ObjectJsonSchema = {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    };
    expectToolkitError(() => lowerToolSchema(withParams(recursive), 'gemini'), 'INVALID_DEFINITION', 'recursive');
    // OpenAI keeps the $ref, so recursion is fine there
    expect(checkOpenAIStrict(lowerToolSchema(withParams(recursive), 'openai', { strict: true }).definition.function.parameters)).toEqual([]);
    expectToolkitError(
      () => lowerToolSchema(withParams({ type: 'object', properties: { x: { $ref: '#/$defs/Missing' } } }), 'gemini'),
      'INVALID_DEFINITION',
      '#/$defs/Missing',
    );
    expectToolkitError(
      () => lowerToolSchema(withParams({ type: 'object', properties: { o: { type: 'object' } } }), 'gemini'),
      'INVALID_DEFINITION',
      '"o"',
      'without properties',
    );
  });

  test('a non-object root and an unknown provider are rejected', () => {
    const bad = deepFreeze({ name: 't', description: 'd', parameters: { type: 'string' } }) as unknown as ToolSchema;
    for (const provider of ['openai', 'anthropic', 'gemini', 'mcp'] as const) {
      expectToolkitError(() => lowerToolSchema(bad, provider), 'INVALID_DEFINITION', 'object schema');
    }
    expectToolkitError(() => lowerToolSchemas([named('t')], 'bedrock' as ProviderName), 'UNKNOWN_PROVIDER', 'Unknown provider "bedrock"');
  });
});
