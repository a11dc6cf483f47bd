import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsOptional, IsString, Length, Min, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import { isToolResult, Tool, ToolParam, type ToolCall, type ToolResult } from '../../src';
import { expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';

afterAll(() => expectAllSchemasMetaValid());

enum Unit {
  Celsius = 'c',
  Fahrenheit = 'f',
}

class AddressDto {
  @IsString() @Length(1, 40) street!: string;
  @IsOptional() @IsInt() @Min(1) number?: number;
}

class ContactDto {
  @IsEmail() email!: string;
  @IsOptional() @IsString() name?: string;
  @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => AddressDto) others?: AddressDto[];
}

let invocations = 0;

class FuzzService {
  @Tool({ name: 'get_weather', description: 'Get weather information' })
  getWeather(
    @ToolParam({ name: 'city' }) city: string,
    @ToolParam({ name: 'days', required: false, integer: true, schema: { minimum: 1, maximum: 14 } }) days?: number,
    @ToolParam({ name: 'unit', required: false, type: () => Unit }) unit?: Unit,
  ) {
    invocations++;
    if (typeof city !== 'string' || (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 14))) {
      throw new Error('invalid arguments reached the method');
    }
    return `${city.length}:${days ?? '-'}:${unit ?? '-'}`;
  }

  @Tool({ description: 'Save a contact' })
  saveContact(@ToolParam({ name: 'contact' }) contact: ContactDto) {
    invocations++;
    if (!(contact instanceof ContactDto) || !(contact.address instanceof AddressDto)) throw new Error('not a DTO instance');
    return 'saved';
  }
}

const toolkit = newToolkit();
toolkit.registerTool(FuzzService);

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

function expectNoPollution(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toHaveLength(0);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(Object.keys(Array.prototype)).toHaveLength(0);
}

const outcomes = { ok: 0, errors: new Map<string, number>() };

/** Calls the tool; fails the property when the call rejects or the result is malformed. */
async function callChecked(name: string, args: unknown): Promise<ToolResult> {
  let result: unknown;
  try {
    result = await toolkit.callTool({ id: 'fuzz', name, arguments: args as ToolCall['arguments'] });
  } catch (e) {
    throw new Error(`callTool rejected for ${name}: ${String(e)}`);
  }
  if (!isToolResult(result)) throw new Error(`not a ToolResult: ${String(result)}`);
  const r = result as ToolResult;
  if (r.isError) {
    if (typeof r.error?.code !== 'string' || r.error.code === '') throw new Error(`error result without a code: ${r.forLLM}`);
    if (r.error.code === 'EXECUTION_FAILED') throw new Error(`invalid input reached the method: ${r.forLLM}`);
    outcomes.errors.set(r.error.code, (outcomes.errors.get(r.error.code) ?? 0) + 1);
  } else outcomes.ok++;
  if (typeof r.forLLM !== 'string' || r.toolCallId !== 'fuzz' || r.name !== name) throw new Error('result does not answer the call');
  return r;
}

/** JSON object text from entries, so that `__proto__` and `constructor` stay plain keys. */
const objectText = (entries: [string, unknown][]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__');
const key = fc.oneof(fc.constantFrom('city', 'days', 'unit', 'contact', 'email', 'address', 'street'), hostileKey, fc.string({ maxLength: 8 }));
const pollution = fc.constantFrom<unknown>({ polluted: true }, { prototype: { polluted: true } }, { __proto__: { polluted: true } }, 'polluted');
const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), pollution);

const deep = fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => {
  const close = open === '[' ? ']' : '}';
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
});

const weatherShaped = fc.record(
  {
    city: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    days: fc.oneof(fc.integer({ min: -3, max: 20 }), fc.double(), fc.constant(null), fc.string({ maxLength: 3 })),
    unit: fc.oneof(fc.constantFrom('c', 'f', 'C', 'kelvin', ''), fc.constant(null)),
  },
  { requiredKeys: [] },
);

const validWeather = fc.record(
  { city: fc.string({ maxLength: 20 }), days: fc.integer({ min: 1, max: 14 }), unit: fc.constantFrom('c', 'f') },
  { requiredKeys: ['city'] },
);

const hugeString = fc.tuple(fc.integer({ min: 10_000, max: 100_000 }), fc.constantFrom('x', 'é', '"', '\\', '\u0000')).map(([n, c]) => c.repeat(n));

/** Every kind of payload, as the `arguments` of a call. */
const payload: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 3 },
  { arbitrary: fc.jsonValue(), weight: 2 },
  { arbitrary: fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withMap: true, withSet: true, withSparseArray: true, withBoxedValues: true }), weight: 2 },
  { arbitrary: fc.array(fc.tuple(key, value), { maxLength: 6 }).map(objectText), weight: 4 },
  { arbitrary: validWeather, weight: 2 },
  { arbitrary: weatherShaped, weight: 3 },
  { arbitrary: weatherShaped.map((v) => JSON.stringify(v)), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: deep, weight: 1 },
  { arbitrary: deep.map((d) => `{"city":"x","days":${d}}`), weight: 1 },
  { arbitrary: hugeString.map((s) => JSON.stringify({ city: s, days: 3 })), weight: 1 },
  { arbitrary: hugeString.map((s) => ({ city: 'x', unit: s })), weight: 1 },
  { arbitrary: hugeString, weight: 1 },
);

const addressShaped = fc.record(
  { street: fc.oneof(fc.string({ maxLength: 45 }), fc.integer(), fc.constant(null)), number: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant(null)) },
  { requiredKeys: [] },
);
const contactShaped = fc.record(
  {
    email: fc.oneof(fc.constantFrom('a@b.co', 'nope', ''), fc.emailAddress()),
    name: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null)),
    address: fc.oneof(addressShaped, fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
    others: fc.oneof(fc.array(addressShaped, { maxLength: 3 }), fc.constant(null)),
  },
  { requiredKeys: [] },
);
const validContact = fc.record(
  {
    email: fc.constantFrom('a@b.co', 'someone@example.org'),
    name: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null)),
    address: fc.record({ street: fc.string({ minLength: 1, maxLength: 40 }), number: fc.oneof(fc.integer({ min: 1 }), fc.constant(null)) }, { requiredKeys: ['street'] }),
  },
  { requiredKeys: ['email', 'address'] },
);
const dtoPayload: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: validContact.map((contact) => ({ contact })), weight: 2 },
  { arbitrary: contactShaped.map((contact) => ({ contact })), weight: 4 },
  { arbitrary: contactShaped.map((contact) => JSON.stringify({ contact })), weight: 3 },
  {
    arbitrary: fc.tuple(contactShaped, fc.array(fc.tuple(hostileKey, pollution), { minLength: 1, maxLength: 3 })).map(
      ([contact, extra]) => `{"contact":${objectText([...Object.entries(contact), ...extra])}}`,
    ),
    weight: 3,
  },
  {
    arbitrary: fc.tuple(hostileKey, pollution).map(
      ([k, v]) => `{"contact":{"email":"a@b.co","address":${objectText([['street', 'Main'], [k, v]])}}}`,
    ),
    weight: 2,
  },
  { arbitrary: payload, weight: 2 },
);

describe('property-based: hostile argument payloads', () => {
  afterAll(() => expectNoPollution());

  it('get_weather: never rejects, never pollutes prototypes, always returns a ToolResult with a code on error', async () => {
    await fc.assert(
      fc.asyncProperty(payload, async (args) => {
        await callChecked('get_weather', args);
        expectNoPollution();
      }),
      { numRuns: 1500 },
    );
    // about 1 payload in 10 is valid: far more than 20 succeed unless valid calls are rejected
    expect(outcomes.ok).toBeGreaterThan(20);
    expect([...outcomes.errors.keys()].sort()).toEqual(['INVALID_ARGUMENTS', 'MALFORMED_ARGUMENTS']);
  });

  it('save_contact (DTO): same guarantees, and valid payloads arrive as class instances', async () => {
    outcomes.ok = 0;
    await fc.assert(
      fc.asyncProperty(dtoPayload, async (args) => {
        await callChecked('save_contact', args);
        expectNoPollution();
      }),
      { numRuns: 800 },
    );
    // about 1 payload in 8 is valid
    expect(outcomes.ok).toBeGreaterThan(20);
  });

  it('unknown and odd tool names are UNKNOWN_TOOL results', async () => {
    invocations = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), hostileKey), payload, async (name, args) => {
        const before = invocations;
        const result = await toolkit.callTool({ id: 'fuzz', name, arguments: args as ToolCall['arguments'] });
        expect(isToolResult(result)).toBe(true);
        if (name !== 'get_weather' && name !== 'save_contact') {
          expect(result.error?.code).toBe('UNKNOWN_TOOL');
          expect(invocations).toBe(before);
        }
      }),
      // the first run is a known name with valid arguments: the counter above counts real runs
      { numRuns: 200, examples: [['get_weather', { city: 'Paris' }]] },
    );
    expect(invocations).toBeGreaterThan(0);
  });
});
