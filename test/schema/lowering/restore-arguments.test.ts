import { Ajv } from 'ajv';
import type { ObjectJsonSchema } from '../../../src';
import {
  compileArgumentRestorer,
  loweringRestoresArguments,
  lowerToolSchema,
  restoreArguments,
} from '../../../src/schema/lowering';
import { fixture } from './fixtures';
import { deepFreeze } from '../../support/schemas';
import { checkGemini, checkOpenAIStrict } from './provider-rule-checks';

const ajv = new Ajv({ strict: false, validateFormats: false });
const strict = { strict: true } as const;

/**
 * For each case: arguments valid for the canonical schema (optionals left out), and the same
 * arguments as a strict-mode model must send them (every optional present, `null`).
 */
const ROUND_TRIPS: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  ['get_weather', { city: 'Paris' }, { city: 'Paris', days: null, unit: null }],
  ['get_weather', { city: 'Paris', days: 3 }, { city: 'Paris', days: 3, unit: null }],
  [
    'nested',
    { owner: { name: 'Ada', contact: { email: 'a@b.c' } } },
    { owner: { name: 'Ada', contact: { email: 'a@b.c', phone: null } }, address: null },
  ],
  ['nested', { owner: { name: 'Ada' } }, { owner: { name: 'Ada', contact: null }, address: null }],
  [
    'array_of_objects',
    { lines: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 2, note: 'gift' }] },
    { lines: [{ sku: 'a', qty: 1, note: null }, { sku: 'b', qty: 2, note: 'gift' }], tags: null },
  ],
  ['enums', { color: 'red' }, { color: 'red', size: null, level: null }],
  ['consts', { kind: 'order' }, { kind: 'order', version: null }],
  // `nick` is required and nullable, `middle` optional and nullable: a null that is a valid value stays
  ['nullables', { nick: null, middle: null, parent: { id: 'p' } }, { nick: null, middle: null, parent: { id: 'p' } }],
  ['refs', { home: { city: 'Oslo' } }, { home: { city: 'Oslo', zip: null }, work: null }],
];

describe('restoreArguments', () => {
  test.each(ROUND_TRIPS)('%s: %j round-trips through the strict schema', (name, canonical, sent) => {
    const tool = fixture(name);
    const lowered = lowerToolSchema(tool, 'openai', strict).definition.function.parameters;
    expect(checkOpenAIStrict(lowered)).toEqual([]);
    // what the model sends is valid for the lowered schema, and invalid without the nulls removed
    expect(ajv.validate(lowered, sent)).toBe(true);
    expect(ajv.validate(tool.parameters, canonical)).toBe(true);
    const frozen = deepFreeze(structuredClone(sent));
    expect(restoreArguments(tool.parameters, frozen, 'openai', strict)).toEqual(canonical);
    expect(restoreArguments(tool.parameters, frozen, 'openai-responses', strict)).toEqual(canonical);
    expect(compileArgumentRestorer(tool.parameters, 'openai', strict)(frozen)).toEqual(canonical);
    expect(frozen).toEqual(sent); // never mutated
  });

  test('without strict mode, and for other providers, the arguments are returned as they are', () => {
    const tool = fixture('get_weather');
    const args = { city: 'Paris', days: null };
    expect(restoreArguments(tool.parameters, args, 'openai')).toBe(args);
    expect(restoreArguments(tool.parameters, args, 'anthropic', strict)).toBe(args);
    expect(restoreArguments(tool.parameters, args, 'gemini')).toBe(args);
    expect(loweringRestoresArguments('openai', strict)).toBe(true);
    expect(loweringRestoresArguments('openai-responses')).toBe(false);
    expect(loweringRestoresArguments('mcp', strict)).toBe(false);
  });

  test('unchanged arguments keep their identity; only changed parts are copied', () => {
    const tool = fixture('nested');
    const owner = { name: 'Ada', contact: { email: 'a@b.c', phone: '1' } };
    const untouched = { owner, address: { street: 'Main', zip: '1' } };
    expect(restoreArguments(tool.parameters, untouched, 'openai', strict)).toBe(untouched);
    const restored = restoreArguments(tool.parameters, { owner, address: null }, 'openai', strict);
    expect(restored).toEqual({ owner });
    expect(restored.owner).toBe(owner);
  });

  test('recursive references and union branches are followed', () => {
    const schema = deepFreeze<ObjectJsonSchema>({
      type: 'object',
      properties: {
        tree: { $ref: '#/$defs/Node' },
        target: {
          anyOf: [
            { type: 'object', properties: { url: { type: 'string' }, label: { type: 'string' } }, required: ['url'] },
            { type: 'object', properties: { path: { type: 'string' }, mode: { type: 'string' } }, required: ['path'] },
          ],
        },
      },
      required: ['tree', 'target'],
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, note: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['name'],
        },
      },
    });
    const sent = {
      tree: { name: 'a', note: null, children: [{ name: 'b', note: 'x', children: [{ name: 'c', note: null, children: null }] }] },
      target: { path: '/tmp', mode: null },
    };
    const lowered = lowerToolSchema({ name: 'tree', description: 'd', parameters: schema }, 'openai', strict);
    expect(checkOpenAIStrict(lowered.definition.function.parameters)).toEqual([]);
    expect(ajv.validate(lowered.definition.function.parameters, sent)).toBe(true);
    expect(restoreArguments(schema, sent, 'openai', strict)).toEqual({
      tree: { name: 'a', children: [{ name: 'b', note: 'x', children: [{ name: 'c' }] }] },
      target: { path: '/tmp' },
    });
  });

  test('values of the wrong shape are left for validation to report', () => {
    const tool = fixture('nested');
    const args = { owner: 'not an object', address: [1, 2] };
    expect(restoreArguments(tool.parameters, args, 'openai', strict)).toBe(args);
  });
});

describe('the rule checkers catch violations (so passing them means something)', () => {
  test('strict checker on canonical schemas', () => {
    expect(checkOpenAIStrict(fixture('get_weather').parameters)).toEqual(
      expect.arrayContaining([': additionalProperties must be false', ': every property must be required', 'days: default']),
    );
    expect(checkOpenAIStrict(fixture('formats').parameters)).toEqual(
      expect.arrayContaining(['email: unsupported keyword minLength', 'url: format uri']),
    );
  });

  test('Gemini checker on canonical schemas', () => {
    expect(checkGemini(fixture('bounds').parameters)).toEqual(
      expect.arrayContaining(['temp: keyword exclusiveMinimum', 'step: keyword multipleOf']),
    );
    expect(checkGemini(fixture('nullables').parameters)).toEqual(
      expect.arrayContaining(['nick: type must be one type name']),
    );
    expect(checkGemini(fixture('refs').parameters)).toEqual(expect.arrayContaining(['home: keyword $ref', ': keyword $schema']));
  });
});
