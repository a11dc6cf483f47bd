import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  Contains,
  Equals,
  IsBoolean,
  IsDate,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Tool, ToolParam, type JsonSchema } from '../../src';
import { call, expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';
import { metaSchemaProblems, objectSchema } from '../support/schemas';

afterAll(() => expectAllSchemasMetaValid());

enum Priority {
  Low = 'low',
  High = 'high',
}

enum Level {
  Low = 1,
  High = 2,
}

enum Signed {
  Minus = -1,
  Zero = 0,
  Plus = 1,
}

class GeoDto {
  @IsNumber() @Min(-90) @Max(90) lat!: number;
  @IsNumber() @Min(-180) @Max(180) lng!: number;
}

class AddressDto {
  @IsString() @Length(2, 80) street!: string;
  @IsString() @IsIn(['FR', 'DE', 'US']) country!: string;
  @IsOptional() @ValidateNested() @Type(() => GeoDto) geo?: GeoDto;
}

class ContactDto {
  @IsEmail() email!: string;
  @IsString() @Length(1, 50) name!: string;
  @IsInt() @Min(0) @Max(130) age!: number;
  @IsEnum(Priority) priority!: Priority;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsString({ each: true }) @Length(1, 10, { each: true }) @ArrayMaxSize(5) @ArrayUnique() tags?: string[];
  @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => AddressDto) @ArrayMinSize(1) others?: AddressDto[];
  @IsOptional() @IsBoolean() vip?: boolean;
}

class MiscDto {
  @IsUUID() id!: string;
  @IsString() @MinLength(3) @MaxLength(8) @Matches(/^[a-z]+$/) slug!: string;
  @IsString() @Matches(/^[a-z]+$/i) anyCase!: string;
  @IsString() @IsNotEmpty() @Contains('@') handle!: string;
  @IsPositive() amount!: number;
  @Equals('v1') version!: string;
  @IsDate() @Type(() => Date) when!: Date;
  @IsOptional() @IsEnum(Signed) sign?: Signed;
  @ValidateIf((o: MiscDto) => o.amount > 100) @IsString() reason?: string;
}

/** A DTO that contains itself: recursion stops with a permissive object. */
class TreeDto {
  @IsString() label!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeDto) children?: TreeDto[];
}

class SchemaService {
  @Tool({ description: 'Primitives' })
  primitives(
    @ToolParam({ name: 's' }) s: string,
    @ToolParam({ name: 'n' }) n: number,
    @ToolParam({ name: 'i', integer: true }) i: number,
    @ToolParam({ name: 'b' }) b: boolean,
    @ToolParam({ name: 'd' }) d: Date,
  ) {
    return [s, n, i, b, d instanceof Date];
  }

  @Tool({ description: 'Arrays' })
  arrays(
    @ToolParam({ name: 'strings', type: () => [String] }) strings: string[],
    @ToolParam({ name: 'numbers', type: () => [Number] }) numbers: number[],
    @ToolParam({ name: 'flags', type: () => [Boolean] }) flags: boolean[],
    @ToolParam({ name: 'dates', type: () => [Date] }) dates: Date[],
    @ToolParam({ name: 'levels', type: () => [Level] }) levels: Level[],
  ) {
    return { allDates: dates.every((d) => d instanceof Date), strings, numbers, flags, levels };
  }

  @Tool({ description: 'Enums' })
  enums(
    @ToolParam({ name: 'priority', type: () => Priority }) priority: Priority,
    @ToolParam({ name: 'level', type: () => Level }) level: Level,
    @ToolParam({ name: 'sign', enum: Signed }) sign: Signed,
    @ToolParam({ name: 'mode', enum: ['fast', 'slow'] as const }) mode: 'fast' | 'slow',
    @ToolParam({ name: 'mixed', enum: ['a', 1, true] }) mixed: unknown,
  ) {
    return [priority, level, sign, mode, mixed];
  }

  @Tool({ description: 'DTOs' })
  dtos(
    @ToolParam({ name: 'contact', description: 'The contact' }) contact: ContactDto,
    @ToolParam({ name: 'misc', required: false }) misc: MiscDto,
    @ToolParam({ name: 'tree', required: false }) tree: TreeDto,
  ) {
    return [contact, misc, tree];
  }
}

const geo: JsonSchema = {
  type: 'object',
  properties: {
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lng: { type: 'number', minimum: -180, maximum: 180 },
  },
  required: ['lat', 'lng'],
  additionalProperties: false,
};

const address: JsonSchema = {
  type: 'object',
  properties: {
    street: { type: 'string', minLength: 2, maxLength: 80 },
    country: { type: 'string', enum: ['FR', 'DE', 'US'] },
    geo,
  },
  required: ['street', 'country'],
  additionalProperties: false,
};

describe('canonical schemas', () => {
  const toolkit = newToolkit();
  toolkit.registerTool(SchemaService);
  const params = (name: string) => toolkit.getTool(name)!.parameters;

  it('maps primitives and Date', () => {
    expect(params('primitives')).toEqual({
      type: 'object',
      properties: {
        s: { type: 'string' },
        n: { type: 'number' },
        i: { type: 'integer' },
        b: { type: 'boolean' },
        d: { type: 'string', format: 'date-time' },
      },
      required: ['s', 'n', 'i', 'b', 'd'],
      additionalProperties: false,
    });
  });

  it('maps arrays with their item types', () => {
    expect(params('arrays')).toEqual({
      type: 'object',
      properties: {
        strings: { type: 'array', items: { type: 'string' } },
        numbers: { type: 'array', items: { type: 'number' } },
        flags: { type: 'array', items: { type: 'boolean' } },
        dates: { type: 'array', items: { type: 'string', format: 'date-time' } },
        levels: { type: 'array', items: { type: 'number', enum: [1, 2] } },
      },
      required: ['strings', 'numbers', 'flags', 'dates', 'levels'],
      additionalProperties: false,
    });
  });

  it('maps string, numeric and negative numeric enums, literal lists and mixed lists', () => {
    expect(params('enums').properties).toEqual({
      priority: { type: 'string', enum: ['low', 'high'] },
      level: { type: 'number', enum: [1, 2] },
      sign: { type: 'number', enum: [-1, 0, 1] },
      mode: { type: 'string', enum: ['fast', 'slow'] },
      mixed: { enum: ['a', 1, true] },
    });
  });

  it('maps class-validator DTOs to nested object schemas with their constraints', () => {
    expect(params('dtos').properties.contact).toEqual({
      type: 'object',
      description: 'The contact',
      properties: {
        email: { type: 'string', format: 'email' },
        name: { type: 'string', minLength: 1, maxLength: 50 },
        age: { type: 'integer', minimum: 0, maximum: 130 },
        priority: { type: 'string', enum: ['low', 'high'] },
        level: { type: 'number', enum: [1, 2] },
        tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 10 }, maxItems: 5, uniqueItems: true },
        address,
        others: { type: 'array', items: address, minItems: 1 },
        vip: { type: 'boolean' },
      },
      required: ['email', 'name', 'age', 'priority', 'address'],
      additionalProperties: false,
    });
    expect(params('dtos').required).toEqual(['contact']);
  });

  it('maps formats, patterns, lengths, positive numbers, constants and Dates inside DTOs', () => {
    expect(params('dtos').properties.misc).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        slug: { type: 'string', minLength: 3, maxLength: 8, pattern: '^[a-z]+$' },
        // a case-insensitive RegExp has no JSON Schema form: class-validator alone checks it
        anyCase: { type: 'string' },
        handle: { type: 'string', minLength: 1 },
        amount: { type: 'number', exclusiveMinimum: 0 },
        version: { type: 'string', const: 'v1' },
        when: { type: 'string', format: 'date-time' },
        sign: { type: 'number', enum: [-1, 0, 1] },
        // @ValidateIf makes it conditional: not required in the schema, class-validator decides
        reason: { type: 'string' },
      },
      required: ['id', 'slug', 'anyCase', 'handle', 'amount', 'version', 'when'],
      additionalProperties: false,
    });
  });

  it('stops recursion through a self-referencing DTO with a permissive object', () => {
    expect(params('dtos').properties.tree).toEqual({
      type: 'object',
      properties: {
        label: { type: 'string' },
        children: { type: 'array', items: { type: 'object' } },
      },
      required: ['label'],
      additionalProperties: false,
    });
  });

  it('deep-freezes every schema', () => {
    const schema = params('dtos');
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(objectSchema(objectSchema(schema.properties.contact).properties!.address).properties)).toBe(true);
    expect(() => {
      (schema.properties as Record<string, unknown>).extra = {};
    }).toThrow(TypeError);
  });

  it('every schema passes the draft-07 and 2020-12 meta-schemas and compiles in strict mode', () => {
    for (const tool of toolkit.getAllTools()) expect([tool.name, metaSchemaProblems(tool.parameters)]).toEqual([tool.name, []]);
  });
});

describe('values reach the method in their declared types', () => {
  const toolkit = newToolkit();
  toolkit.registerTool(SchemaService);

  it('converts Dates, also in arrays and DTOs, and accepts case-insensitive patterns', async () => {
    expect((await call(toolkit, 'primitives', { s: 'x', n: 1.5, i: 2, b: false, d: '2024-01-02T03:04:05Z' })).forLLM).toBe('["x",1.5,2,false,true]');
    const arrays = await call(toolkit, 'arrays', {
      strings: ['a'],
      numbers: [1],
      flags: [true],
      dates: ['2024-01-02T03:04:05Z', '2025-01-02T03:04:05.123+02:00'],
      levels: [2],
    });
    expect(arrays.data).toEqual({ allDates: true, strings: ['a'], numbers: [1], flags: [true], levels: [2] });

    const misc = {
      id: '0b6c1c8e-4f1f-4b7e-9a37-1f2f3b4c5d6e',
      slug: 'abc',
      anyCase: 'AbC',
      handle: 'me@home',
      amount: 3,
      version: 'v1',
      when: '2024-01-02T03:04:05Z',
    };
    const contact = { email: 'a@b.co', name: 'Ann', age: 30, priority: 'high', address: { street: 'Main', country: 'FR' } };
    const result = await call(toolkit, 'dtos', { contact, misc });
    expect(result.isError).toBe(false);
    const [, miscValue] = result.data as [unknown, MiscDto];
    expect(miscValue).toBeInstanceOf(MiscDto);
    expect(miscValue.when).toBeInstanceOf(Date);

    const big = await call(toolkit, 'dtos', { contact, misc: { ...misc, amount: 500 } });
    expect(big.forLLM).toBe("Invalid arguments for tool 'dtos':\n- 'misc.reason': reason must be a string\nFix these and call the tool again.");
    expect((await call(toolkit, 'dtos', { contact, misc: { ...misc, amount: 500, reason: 'bulk' } })).isError).toBe(false);
  });

  it('reports a class-validator-only constraint (no schema form) after the schema passed', async () => {
    const misc = {
      id: '0b6c1c8e-4f1f-4b7e-9a37-1f2f3b4c5d6e',
      slug: 'abc',
      anyCase: 'ABC1',
      handle: 'nohandle',
      amount: 3,
      version: 'v1',
      when: '2024-01-02T03:04:05Z',
    };
    const contact = { email: 'a@b.co', name: 'Ann', age: 30, priority: 'high', address: { street: 'Main', country: 'FR' } };
    const result = await call(toolkit, 'dtos', { contact, misc });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM).toBe(
      "Invalid arguments for tool 'dtos':\n" +
        "- 'misc.anyCase': anyCase must match /^[a-z]+$/i regular expression\n" +
        "- 'misc.handle': handle must contain a @ string\n" +
        'Fix these and call the tool again.',
    );
  });
});
