import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { generateManifest, serializeManifest } from '../../src/build';
import type { JsonSchema } from '../../src/model/json-schema';
import type { ManifestMethod, ManifestParam, ToolManifest } from '../../src/model/manifest';
import { objectSchema } from '../support/schemas';

const ROOT = path.resolve(__dirname, '..', '..');
const GOLDEN = path.join(__dirname, 'golden', 'manifest.json');
const FIXTURES = 'test/build/fixtures/*.ts';

let manifest: ToolManifest;
let text: string;
let consoleCalls = 0;

beforeAll(() => {
  const spies = [jest.spyOn(console, 'warn'), jest.spyOn(console, 'error'), jest.spyOn(console, 'log')];
  try {
    manifest = generateManifest({ files: [FIXTURES], cwd: ROOT });
  } finally {
    consoleCalls = spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
    for (const spy of spies) spy.mockRestore();
  }
  text = serializeManifest(manifest);
});

function method(className: string, methodName: string): ManifestMethod {
  const found = manifest.classes[className]?.methods[methodName];
  if (found === undefined) throw new Error(`${className}.${methodName} is not in the manifest`);
  return found;
}

function param(className: string, methodName: string, name: string): ManifestParam {
  const found = method(className, methodName).params.find((p) => p.name === name);
  if (found === undefined) throw new Error(`${className}.${methodName}(${name}) is not in the manifest`);
  return found;
}

function schema(className: string, methodName: string, name: string): JsonSchema {
  const found = param(className, methodName, name).schema;
  if (found === undefined) throw new Error(`${className}.${methodName}(${name}) has no schema`);
  return found;
}

/** A short line diff: the first differing lines with a little context. */
function lineDiff(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first += 1;
  const from = Math.max(0, first - 3);
  const out = [`first difference at line ${first + 1}:`];
  for (let i = from; i < Math.min(first + 8, Math.max(a.length, b.length)); i += 1) {
    if (a[i] === b[i]) out.push(`   ${a[i] ?? ''}`);
    else {
      if (a[i] !== undefined) out.push(` - ${a[i]}`);
      if (b[i] !== undefined) out.push(` + ${b[i]}`);
    }
  }
  return out.join('\n');
}

function allSchemas(m: ToolManifest): [string, JsonSchema][] {
  const out: [string, JsonSchema][] = [];
  for (const [className, cls] of Object.entries(m.classes)) {
    for (const [methodName, entry] of Object.entries(cls.methods)) {
      for (const p of entry.params) if (p.schema !== undefined) out.push([`${className}.${methodName}(${p.name})`, p.schema]);
      if (entry.returns !== undefined) out.push([`${className}.${methodName} returns`, entry.returns]);
    }
  }
  return out;
}

describe('golden manifest', () => {
  it('matches test/build/golden/manifest.json (UPDATE_GOLDEN=1 regenerates it)', () => {
    if (process.env.UPDATE_GOLDEN === '1') {
      fs.mkdirSync(path.dirname(GOLDEN), { recursive: true });
      fs.writeFileSync(GOLDEN, text);
    }
    const golden = fs.existsSync(GOLDEN) ? fs.readFileSync(GOLDEN, 'utf8') : '';
    if (golden !== text) {
      throw new Error(
        `The generated manifest drifted from ${path.relative(ROOT, GOLDEN)}.\n${lineDiff(golden, text)}\n` +
          'If the change is intended, run `UPDATE_GOLDEN=1 npx jest test/build` and commit the golden file.',
      );
    }
  });

  it('has the fixed header and sorted classes and methods', () => {
    expect(manifest.version).toBe(1);
    expect(manifest.generator).toBe('toolwright-schema');
    const classNames = Object.keys(manifest.classes);
    expect(classNames).toEqual([...classNames].sort());
    expect(classNames).toEqual(['AliasedService', 'CrmService', 'GenericStore', 'GenericWriter', 'PackageService', 'ReminderService', 'WeatherService']);
    for (const cls of Object.values(manifest.classes)) {
      const methods = Object.keys(cls.methods);
      expect(methods).toEqual([...methods].sort());
    }
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "classes": {\n    "AliasedService": {');
  });

  it('prints nothing while generating (typescript-json-schema notes are silenced)', () => {
    expect(consoleCalls).toBe(0);
  });

  it('is deterministic: serialising the parsed file again gives the same text', () => {
    expect(serializeManifest(JSON.parse(text) as ToolManifest)).toBe(text);
  });
});

describe('every generated schema', () => {
  it('passes the JSON Schema meta-schema and compiles under strict Ajv', () => {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const schemas = allSchemas(manifest);
    expect(schemas.length).toBeGreaterThan(30);
    for (const [where, s] of schemas) {
      const valid = ajv.validateSchema(s);
      if (valid !== true) throw new Error(`${where}: ${ajv.errorsText(ajv.errors)}`);
      expect(() => ajv.compile(s)).not.toThrow();
    }
  });

  it('has no $ref, $schema or definitions anywhere', () => {
    expect(text).not.toMatch(/"\$ref"|"\$schema"|"definitions"|"\$defs"/);
  });

  it('gives every object additionalProperties and its required list', () => {
    const visit = (s: unknown, where: string): void => {
      if (typeof s !== 'object' || s === null) return;
      if (Array.isArray(s)) return s.forEach((x) => visit(x, where));
      const node = s as Record<string, unknown>;
      if (node.type === 'object' && node.properties !== undefined) {
        expect({ where, additionalProperties: node.additionalProperties !== undefined }).toEqual({ where, additionalProperties: true });
      }
      for (const value of Object.values(node)) visit(value, where);
    };
    for (const [where, s] of allSchemas(manifest)) visit(s, where);
  });
});

describe('parameters', () => {
  it('keeps names and order, and marks ? and defaults optional', () => {
    expect(method('WeatherService', 'forecast').params.map((p) => [p.name, p.index, p.optional])).toEqual([
      ['city', 0, false],
      ['days', 1, true],
      ['includeHourly', 2, true],
      ['signal', 3, true],
    ]);
    expect(param('WeatherService', 'getWeather', 'unit').optional).toBe(true);
    expect(param('WeatherService', 'getWeather', 'emitter').optional).toBe(false);
  });

  it('takes the method description and @param texts from JSDoc', () => {
    expect(method('WeatherService', 'getWeather').description).toBe('Get the current weather for a city.');
    expect(param('WeatherService', 'getWeather', 'city').description).toBe('City name, e.g. "Paris"');
    expect(param('WeatherService', 'getWeather', 'unit').description).toBe('Temperature unit'); // "- " stripped
    expect(schema('WeatherService', 'getWeather', 'city')).toEqual({ type: 'string', description: 'City name, e.g. "Paris"' });
    expect(param('CrmService', 'tuple', 'flags').description).toBeUndefined();
  });

  it('turns string-literal unions and enums into enum', () => {
    expect(schema('WeatherService', 'getWeather', 'unit')).toEqual({
      type: 'string',
      description: 'Temperature unit.',
      enum: ['celsius', 'fahrenheit', 'kelvin'],
      default: 'celsius',
    });
    expect(schema('CrmService', 'search', 'sort')).toMatchObject({ type: 'string', enum: ['asc', 'desc'] });
    // An enum keeps its identity (declaration order, its JSDoc) even as an optional parameter.
    expect(schema('CrmService', 'createContact', 'priority')).toEqual({
      type: 'string',
      description: 'String enum.',
      enum: ['low', 'normal', 'high'],
      default: 'normal',
    });
    expect(param('CrmService', 'createContact', 'priority').description).toBe('Follow-up priority');
    expect(schema('CrmService', 'search', 'level')).toMatchObject({ type: 'number', enum: [0, 1, 2, 3] });
  });

  it('inlines arrays of nested interfaces with their JSDoc constraint tags', () => {
    const addresses = schema('WeatherService', 'weatherAt', 'addresses');
    expect(addresses.type).toBe('array');
    const address = addresses.items as JsonSchema;
    expect(address).toMatchObject({
      type: 'object',
      description: 'A postal address.',
      required: ['city', 'street'],
      additionalProperties: false,
    });
    expect(address.properties?.zip).toEqual({ type: 'string', description: 'Postal code.', pattern: '^[0-9]{5}$' });
    const location = address.properties?.location as JsonSchema;
    expect(location.anyOf?.[1]).toEqual({ type: 'null' });
    expect(objectSchema(location.anyOf?.[0]).properties?.lat).toEqual({ type: 'number', minimum: -90, maximum: 90 });
  });

  it('honours @minLength/@maxLength/@maxItems/@format on properties and on aliases', () => {
    const contact = schema('CrmService', 'createContact', 'contact');
    expect(contact.properties?.name).toEqual({ type: 'string', description: 'Full name.', minLength: 1, maxLength: 80 });
    expect(contact.properties?.email).toEqual({ type: 'string', description: 'An e-mail address.', format: 'email', maxLength: 254 });
    expect(contact.properties?.tags).toMatchObject({ type: 'array', items: { type: 'string' }, maxItems: 10 });
  });

  it('keeps the JSDoc tags of a primitive alias used directly as a parameter type', () => {
    expect(schema('WeatherService', 'forecast', 'days')).toEqual({
      type: 'number',
      description: 'How many days ahead.',
      minimum: 1,
      maximum: 14,
    });
    expect(schema('WeatherService', 'stations', 'limit')).toMatchObject({ type: 'integer', default: 10 });
  });

  it('maps Date, nullable types, Record, tuples, unknown and literal defaults', () => {
    expect(schema('PackageService', 'ping', 'at')).toEqual({ type: 'string', description: 'When', format: 'date-time' });
    expect(schema('WeatherService', 'weatherAt', 'since')).toEqual({
      description: 'Only observations after this instant',
      anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
    });
    expect(schema('CrmService', 'search', 'page')).toMatchObject({ type: ['null', 'number'] });
    expect(schema('WeatherService', 'stations', 'readings')).toEqual({
      type: 'object',
      description: 'Temperatures keyed by station id',
      additionalProperties: { type: 'number' },
    });
    expect(schema('CrmService', 'createContact', 'contact').properties?.attributes).toMatchObject({
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    });
    expect(schema('CrmService', 'tuple', 'ids')).toMatchObject({ type: 'array', items: [{ type: 'string' }, { type: 'number' }], minItems: 2, maxItems: 2 });
    expect(schema('CrmService', 'tuple', 'anything')).toEqual({});
    expect(schema('WeatherService', 'forecast', 'includeHourly')).toMatchObject({ type: 'boolean', default: false });
  });

  it('spells a recursive type out once and cuts the recursion without a $ref', () => {
    const root = schema('CrmService', 'setCategories', 'root');
    expect(root).toMatchObject({ type: 'object', required: ['children', 'name'] });
    expect(objectSchema(root.properties?.children).items).toEqual({ type: 'object', $comment: 'recursive reference to Category, not expanded' });
  });

  it('treats class-typed parameters with @ToolParam as model DTOs (private members left out)', () => {
    const note = param('CrmService', 'addNote', 'note');
    expect(note.kind).toBe('model');
    expect(note.schema).toMatchObject({ type: 'object', required: ['text'], additionalProperties: false });
    expect(Object.keys(note.schema?.properties ?? {})).toEqual(['text', 'pinned']);
  });

  it('turns literal DTO field initialisers into defaults and skips other initialisers', () => {
    expect(schema('ReminderService', 'schedule', 'reminder').properties).toEqual({
      at: { type: 'string', description: 'When to remind.', format: 'date-time' },
      repeat: { type: 'string', description: 'How often.', enum: ['daily', 'never'], default: 'never' },
    });
  });

  it('names a destructured parameter from its @ToolParam({ name }) literal', () => {
    expect(param('CrmService', 'addNote', 'options')).toMatchObject({
      index: 1,
      optional: true,
      kind: 'model',
      schema: { type: 'object', default: { color: 'red' } },
    });
  });
});

describe('injected parameters', () => {
  it('marks ToolEmitter, AbortSignal and context classes, with no schema', () => {
    expect(param('WeatherService', 'getWeather', 'emitter')).toEqual({
      name: 'emitter',
      index: 2,
      optional: false,
      kind: 'injected',
      injected: 'emitter',
      description: 'progress',
    });
    expect(param('WeatherService', 'forecast', 'signal')).toMatchObject({ kind: 'injected', injected: 'signal' });
    expect(param('WeatherService', 'weatherAt', 'user')).toMatchObject({ kind: 'injected', injected: 'context', typeName: 'UserContext' });
    expect(param('CrmService', 'createContact', 'tenant')).toMatchObject({ kind: 'injected', injected: 'context', typeName: 'TenantContext' });
    expect(param('CrmService', 'addNote', 'user')).toMatchObject({ kind: 'injected', injected: 'context', typeName: 'UserContext', optional: true });
    for (const p of Object.values(manifest.classes).flatMap((c) => Object.values(c.methods).flatMap((m) => m.params))) {
      if (p.kind === 'injected') expect(p.schema).toBeUndefined();
      else expect(p.schema).toBeDefined();
    }
  });

  it('recognises ToolEmitter and ClientRequests imported under another name and from an unresolved package', () => {
    expect(param('AliasedService', 'echo', 'progress')).toMatchObject({ kind: 'injected', injected: 'emitter' });
    expect(param('AliasedService', 'echo', 'client')).toMatchObject({ kind: 'injected', injected: 'client' });
    expect(param('PackageService', 'list', 'emitter')).toMatchObject({ kind: 'injected', injected: 'emitter' });
  });
});

describe('tool discovery', () => {
  it('finds tools through aliased, namespace and package imports of the decorator', () => {
    expect(Object.keys(manifest.classes.AliasedService?.methods ?? {})).toEqual(['echo', 'repeat']);
    expect(manifest.classes.AliasedService?.file).toBe('test/build/fixtures/aliased-service.ts');
    expect(Object.keys(manifest.classes.PackageService?.methods ?? {})).toEqual(['list', 'ping']);
  });

  it('covers static methods, generic classes and `export { X }` classes, and skips undecorated methods', () => {
    expect(method('CrmService', 'count')).toEqual({ description: 'Count contacts (static tool).', params: [], returns: { type: 'number' } });
    expect(method('GenericStore', 'get').params).toHaveLength(1);
    // A type parameter is described by its constraint.
    expect(schema('GenericWriter', 'put', 'item')).toEqual({
      type: 'object',
      description: 'the item',
      properties: { id: { type: 'string' }, size: { type: 'number' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(manifest.classes.WeatherService?.methods.helper).toBeUndefined();
    expect(manifest.classes.PlainHelper).toBeUndefined();
  });
});

describe('return values', () => {
  it('describes the awaited return type, unwraps Observables, and leaves out void and unknown', () => {
    expect(method('WeatherService', 'getWeather').returns).toEqual({ type: 'string' });
    expect(method('WeatherService', 'forecast').returns).toMatchObject({ type: 'array', items: { type: 'object', required: ['date', 'high', 'low'] } });
    expect(method('PackageService', 'list').returns).toEqual({ type: 'array', items: { type: 'string' } });
    expect(method('WeatherService', 'stations').returns).toBeUndefined();
    expect(method('CrmService', 'setCategories').returns).toBeUndefined();
    expect(method('CrmService', 'tuple').returns).toBeUndefined();
  });
});
