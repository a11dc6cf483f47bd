import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { Container, inject, injectable } from 'inversify';
import {
  asyncResult,
  loadManifest,
  parseManifest,
  Prompt,
  Resource,
  Tool,
  ToolExecutionContext,
  ToolParam,
  ToolService,
  type AgentTool,
  type AsyncCallback,
  type AsyncTool,
  type ContextualTool,
  type ToolCallContext,
  type ToolManifest,
  type ToolResult,
} from '../../src';
import { call, expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';
import { thrown } from '../support/errors';
import { recordEvents } from '../support/events';

afterAll(() => expectAllSchemasMetaValid());

enum Unit {
  Celsius = 'c',
  Fahrenheit = 'f',
}

enum Level {
  Low = 1,
  High = 2,
}

class AddressDto {
  @IsString() @Length(2, 40) street!: string;
  @IsOptional() @IsInt() @Min(1) number?: number;
}

interface Shape {
  kind: string;
}

describe('tool names and descriptions', () => {
  class NamingService {
    @Tool({ description: 'Weather' })
    getWeather(@ToolParam({ name: 'city' }) city: string) {
      return city;
    }

    @Tool({ description: 'Routes' })
    listHTTPRoutes() {
      return 'routes';
    }

    @Tool({ description: 'Search v2' })
    v2Search() {
      return 'v2';
    }

    @Tool({ name: 'explicit-Name_1', description: 'Explicitly named' })
    somethingElse() {
      return 'x';
    }
  }

  it('defaults to the method name in snake_case and keeps explicit names and descriptions', () => {
    const toolkit = newToolkit();
    const tools = toolkit.registerTool(NamingService);
    expect(tools.map((t) => [t.name, t.description])).toEqual([
      ['get_weather', 'Weather'],
      ['list_http_routes', 'Routes'],
      ['v2_search', 'Search v2'],
      ['explicit-Name_1', 'Explicitly named'],
    ]);
    expect(toolkit.getToolSchemas().map((s) => s.name)).toEqual(['get_weather', 'list_http_routes', 'v2_search', 'explicit-Name_1']);
  });

  it('gives a method without parameters an empty object schema', () => {
    const toolkit = newToolkit();
    toolkit.registerTool(NamingService);
    expect(toolkit.getTool('list_http_routes')!.parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });
});

describe('parameters', () => {
  class ParamService {
    calls: unknown[][] = [];

    @Tool({ description: 'Everything' })
    everything(
      @ToolParam({ name: 'city', description: 'City name' }) city: string,
      @ToolParam({ name: 'days', description: 'Forecast days', required: false, schema: { minimum: 1, maximum: 14 } })
      days: number | undefined,
      @ToolParam({ name: 'count', integer: true }) count: number,
      @ToolParam({ name: 'ratio', schema: { type: 'integer', minimum: 0, description: 'from schema' } }) ratio: number,
      @ToolParam({ name: 'flag', required: false, type: () => Boolean }) flag: boolean | undefined,
      @ToolParam({ name: 'tags', type: () => [String] }) tags: string[],
      @ToolParam({ name: 'addresses', type: () => [AddressDto], required: false }) addresses: AddressDto[] | undefined,
      @ToolParam({ name: 'home', type: () => AddressDto, required: false }) home: unknown,
      @ToolParam({ name: 'unit', type: () => Unit, required: false }) unit: Unit | undefined,
      @ToolParam({ name: 'level', enum: Level, required: false }) level: Level | undefined,
      @ToolParam({ name: 'color', enum: ['red', 'green'], required: false }) color: string | undefined,
      @ToolParam({ name: 'units', type: () => [Unit], required: false }) units: Unit[] | undefined,
      @ToolParam({ name: 'sizes', type: () => [Number], integer: true, required: false }) sizes: number[] | undefined,
      @ToolParam({ name: 'when', required: false, type: () => Date }) when: Date | undefined,
      @ToolParam({ name: 'shape', schema: { type: 'object', properties: { kind: { type: 'string' } } }, required: false })
      shape: Shape | undefined,
    ) {
      this.calls.push([city, days, count, ratio, flag, tags, addresses, home, unit, level, color, units, sizes, when, shape]);
      return 'ok';
    }
  }

  it('infers each schema, merges explicit options over it and lists required parameters', () => {
    const toolkit = newToolkit();
    toolkit.registerTool(ParamService);
    const address = {
      type: 'object',
      properties: {
        street: { type: 'string', minLength: 2, maxLength: 40 },
        number: { type: 'integer', minimum: 1 },
      },
      additionalProperties: false,
      required: ['street'],
    };
    expect(toolkit.getTool('everything')!.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'number', minimum: 1, maximum: 14, description: 'Forecast days' },
        count: { type: 'integer' },
        ratio: { type: 'integer', minimum: 0, description: 'from schema' },
        flag: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        addresses: { type: 'array', items: address },
        home: address,
        unit: { type: 'string', enum: ['c', 'f'] },
        level: { type: 'number', enum: [1, 2] },
        color: { type: 'string', enum: ['red', 'green'] },
        units: { type: 'array', items: { type: 'string', enum: ['c', 'f'] } },
        sizes: { type: 'array', items: { type: 'integer' } },
        when: { type: 'string', format: 'date-time' },
        shape: { type: 'object', properties: { kind: { type: 'string' } } },
      },
      required: ['city', 'count', 'ratio', 'tags'],
      additionalProperties: false,
    });
  });

  it('passes arguments by name, Dates as Date, DTOs as instances, absent optionals as undefined', async () => {
    const container = new Container();
    const toolkit = newToolkit({ container });
    toolkit.registerTool(ParamService);
    const service = container.get(ParamService);
    const result = await call(toolkit, 'everything', {
      city: 'Paris',
      count: 2,
      ratio: 3,
      tags: ['a', 'b'],
      addresses: [{ street: 'Main' }, { street: 'Side', number: 4 }],
      home: { street: 'Home' },
      unit: 'f',
      level: 2,
      color: 'red',
      units: ['c'],
      sizes: [1, 2],
      when: '2024-05-06T07:08:09Z',
    });
    expect(result).toMatchObject({ isError: false, forLLM: 'ok' });
    expect(service.calls).toHaveLength(1);
    const [city, days, count, ratio, flag, tags, addresses, home, unit, level, color, units, sizes, when, shape] = service.calls[0];
    expect([city, days, count, ratio, flag, tags]).toEqual(['Paris', undefined, 2, 3, undefined, ['a', 'b']]);
    expect(addresses).toEqual([Object.assign(new AddressDto(), { street: 'Main' }), Object.assign(new AddressDto(), { street: 'Side', number: 4 })]);
    expect((addresses as unknown[]).every((a) => a instanceof AddressDto)).toBe(true);
    expect(home).toBeInstanceOf(AddressDto);
    expect([unit, level, color, units, sizes, shape]).toEqual(['f', 2, 'red', ['c'], [1, 2], undefined]);
    expect(when).toBeInstanceOf(Date);
    expect((when as Date).toISOString()).toBe('2024-05-06T07:08:09.000Z');
  });

  it('rejects an integer parameter given a fraction and an array of integers given one', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(ParamService);
    const result = await call(toolkit, 'everything', { city: 'P', count: 1.5, ratio: 1, tags: [], sizes: [1, 2.5] });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM).toContain("'count': must be integer, got number");
    expect(result.forLLM).toContain("'sizes[1]': must be integer, got number");
  });
});

describe('reflected types of optional parameters', () => {
  class Optionals {
    @Tool({ description: 'd' })
    run(
      @ToolParam({ name: 'a' }) a: string,
      @ToolParam({ name: 'n', required: false }) n?: number,
      @ToolParam({ name: 'when', required: false }) when?: Date,
    ) {
      return [a, n, when instanceof Date];
    }
  }

  it('keeps the reflected type of `x?: T` parameters', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(Optionals);
    expect(toolkit.getTool('run')!.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, n: { type: 'number' }, when: { type: 'string', format: 'date-time' } },
      required: ['a'],
      additionalProperties: false,
    });
    expect((await call(toolkit, 'run', { a: 'x', when: '2024-01-01T00:00:00Z' })).forLLM).toBe('["x",null,true]');
  });

  it('infers the type of `x: T | undefined` (Object to tsc strict and swc) from the schema fragment keywords', () => {
    class Fragments {
      @Tool({ description: 'd' })
      run(
        @ToolParam({ name: 'days', required: false, schema: { minimum: 1, maximum: 14 } }) days: number | undefined,
        @ToolParam({ name: 'code', required: false, schema: { pattern: '^[A-Z]{3}$' } }) code: string | undefined,
        @ToolParam({ name: 'ids', required: false, schema: { items: { type: 'integer' } } }) ids: number[] | undefined,
      ) {
        return [days, code, ids];
      }
    }
    const toolkit = newToolkit();
    toolkit.registerTool(Fragments);
    expect(toolkit.getTool('run')!.parameters.properties).toEqual({
      days: { type: 'number', minimum: 1, maximum: 14 },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      ids: { type: 'array', items: { type: 'integer' } },
    });
  });

  it('explains `x: T | undefined` when nothing tells the type', () => {
    class Unknowable {
      @Tool({ description: 'd' })
      run(@ToolParam({ name: 'flag', required: false }) flag: boolean | undefined) {
        return flag;
      }
    }
    // what tsc emits under "strict" for `boolean | undefined` (swc may say Boolean)
    Reflect.defineMetadata('design:paramtypes', [Object], Unknowable.prototype, 'run');
    const error = thrown(() => newToolkit().registerTool(Unknowable), 'INVALID_DEFINITION');
    expect(error.message).toContain("Unknowable.run parameter 'flag' (#0)");
    expect(error.message).toContain('reflection saw Object');
    expect(error.message).toContain('tsc with "strict"');
    expect(error.message).toContain('type: () => String');
    expect(error.message).toContain('new Toolkit({ manifest })');
    // the fix `x?: T` is illegal before an injected parameter (TS1016), and swc/esbuild are not to blame
    expect(error.message).not.toContain('x?: T');
    expect(error.message).not.toMatch(/swc\/esbuild/);
  });

  it('takes `x: T | undefined` (Object under tsc strict) with required: false from a type thunk or the manifest', async () => {
    class UserContextForReasons {
      constructor(readonly user: string) {}
    }
    class Reasons {
      @Tool({ description: 'Close a ticket' })
      close(
        @ToolParam({ name: 'id' }) id: string,
        @ToolParam({ name: 'reason', required: false, type: () => String }) reason: string | undefined,
        @ToolParam({ name: 'note', required: false }) note: string | undefined,
        context: UserContextForReasons,
      ) {
        return `${id}:${reason ?? '-'}:${note ?? '-'}:${context.user}`;
      }
    }
    // what tsc emits under "strict"
    Reflect.defineMetadata('design:paramtypes', [String, Object, Object, UserContextForReasons], Reasons.prototype, 'close');
    const manifest: ToolManifest = {
      version: 1,
      generator: 'toolwright-schema',
      classes: {
        Reasons: {
          file: 'reasons.ts',
          methods: {
            close: {
              params: [
                { name: 'id', index: 0, optional: false, kind: 'model', schema: { type: 'string' } },
                { name: 'reason', index: 1, optional: false, kind: 'model', schema: { type: 'string' } },
                { name: 'note', index: 2, optional: false, kind: 'model', schema: { type: 'string' } },
                { name: 'context', index: 3, optional: false, kind: 'injected', injected: 'context', typeName: 'UserContextForReasons' },
              ],
            },
          },
        },
      },
    };
    const toolkit = newToolkit({ manifest, context: ToolExecutionContext.builder().register(new UserContextForReasons('ada')).build() });
    toolkit.registerTool(Reasons);
    expect(toolkit.getTool('close')!.parameters).toMatchObject({
      properties: { id: { type: 'string' }, reason: { type: 'string' }, note: { type: 'string' } },
      required: ['id'],
    });
    expect((await call(toolkit, 'close', { id: 't1', note: 'dup' })).forLLM).toBe('t1:-:dup:ada');
  });
});

describe('groups from @ToolService, @Tool and registration', () => {
  @ToolService({ group: 'weather' })
  class WeatherService {
    @Tool({ description: 'Forecast' })
    forecast() {
      return 'sunny';
    }

    @Tool({ description: 'Alerts', group: 'alerts' })
    alerts() {
      return 'none';
    }
  }

  it('uses the service group by default, the @Tool group over it and the registration group over both', () => {
    const toolkit = newToolkit();
    toolkit.registerTool(WeatherService);
    expect(toolkit.getTool('forecast')!.behaviour?.group).toBe('weather');
    expect(toolkit.getTool('alerts')!.behaviour?.group).toBe('alerts');
    expect(toolkit.getToolGroups()).toEqual([
      { name: 'weather', description: '', active: true },
      { name: 'alerts', description: '', active: true },
    ]);

    const other = newToolkit();
    other.registration().tool(WeatherService).group('admin').apply();
    expect(other.getAllTools().map((t) => t.behaviour?.group)).toEqual(['admin', 'admin']);
  });

  it('makes @ToolService classes injectable with constructor injection', async () => {
    @injectable()
    class Clock {
      now() {
        return 'noon';
      }
    }
    @ToolService()
    class TimeService {
      constructor(@inject(Clock) private readonly clock: Clock) {}

      @Tool({ description: 'Time' })
      time() {
        return this.clock.now();
      }
    }
    const container = new Container();
    container.bind(Clock).toSelf();
    const toolkit = newToolkit({ container });
    toolkit.registerTool(TimeService);
    expect((await call(toolkit, 'time', {})).forLLM).toBe('noon');
  });
});

describe('definition-time errors', () => {
  it('MISSING_NAME names Class.method, the parameter and both fixes', () => {
    class NoName {
      @Tool({ description: 'd' })
      run(@ToolParam({ description: 'the city' }) city: string) {
        return city;
      }
    }
    const error = thrown(() => newToolkit().registerTool(NoName), 'MISSING_NAME');
    expect(error.message).toContain('NoName.run');
    expect(error.message).toContain('parameter #0');
    expect(error.message).toContain("@ToolParam({ name: '…' })");
    expect(error.message).toContain('toolwright-schema');
  });

  it('MISSING_DESCRIPTION names Class.method, the tool and the fix', () => {
    class NoDescription {
      @Tool()
      run() {
        return 'x';
      }
    }
    const error = thrown(() => newToolkit().registerTool(NoDescription), 'MISSING_DESCRIPTION');
    expect(error.message).toContain('NoDescription.run');
    expect(error.message).toContain("'run'");
    expect(error.message).toContain("@Tool({ description: '…' })");
    expect(error.tool).toBe('run');
  });

  it('DUPLICATE_TOOL names both owners and registers nothing of the second class', () => {
    class First {
      @Tool({ name: 'lookup', description: 'd' })
      find() {
        return 1;
      }
    }
    class Second {
      @Tool({ description: 'other' })
      other() {
        return 2;
      }

      @Tool({ name: 'lookup', description: 'd' })
      search() {
        return 2;
      }
    }
    const toolkit = newToolkit();
    toolkit.registerTool(First);
    const error = thrown(() => toolkit.registerTool(Second), 'DUPLICATE_TOOL');
    expect(error.message).toContain('First.find');
    expect(error.message).toContain('Second.search');
    expect(error.message).toContain('@Tool({ name })');
    expect(toolkit.getAllTools().map((t) => t.name)).toEqual(['lookup']);

    const agentTool: AgentTool = { name: 'lookup', description: 'd', parameters: { type: 'object', properties: {} }, execute: () => 'x' };
    const again = thrown(() => toolkit.registerTool(agentTool), 'DUPLICATE_TOOL');
    expect(again.message).toContain('First.find');
    expect(again.message).toContain("AgentTool 'lookup'");
  });

  it('DUPLICATE_TOOL within one class and within one registration', () => {
    class Twice {
      @Tool({ name: 'same', description: 'a' })
      a() {
        return 1;
      }

      @Tool({ name: 'same', description: 'b' })
      b() {
        return 2;
      }
    }
    const toolkit = newToolkit();
    const error = thrown(() => toolkit.registerTool(Twice), 'DUPLICATE_TOOL');
    expect(error.message).toContain('Twice.a');
    expect(error.message).toContain('Twice.b');
    expect(toolkit.getAllTools()).toEqual([]);
  });

  it('UNRESOLVABLE_PARAMETER for a parameter with neither @ToolParam nor an injectable type', () => {
    class Unresolvable {
      @Tool({ description: 'd' })
      run(@ToolParam({ name: 'city' }) city: string, extra: string) {
        return city + extra;
      }
    }
    const error = thrown(() => newToolkit().registerTool(Unresolvable), 'UNRESOLVABLE_PARAMETER');
    expect(error.message).toContain('Unresolvable.run');
    expect(error.message).toContain('parameter #1');
    expect(error.message).toContain('@ToolParam');
    expect(error.message).toContain('context class');
  });

  it('DECORATOR_METADATA_MISSING when decorators ran without design:paramtypes (no emitDecoratorMetadata)', () => {
    class HandDecorated {
      greet(name: string) {
        return `hi ${name}`;
      }
    }
    const descriptor = Object.getOwnPropertyDescriptor(HandDecorated.prototype, 'greet')!;
    Reflect.decorate([Tool({ description: 'Greet' })], HandDecorated.prototype, 'greet', descriptor);
    ToolParam({ name: 'name' })(HandDecorated.prototype, 'greet', 0);
    expect(Reflect.getMetadata('design:paramtypes', HandDecorated.prototype, 'greet')).toBeUndefined();

    const toolkit = newToolkit();
    const error = thrown(() => toolkit.registerTool(HandDecorated), 'DECORATOR_METADATA_MISSING');
    expect(error.message).toContain('HandDecorated.greet');
    expect(error.message).toContain('emitDecoratorMetadata');
    expect(error.message).toContain('experimentalDecorators');
    expect(error.message).toContain("import 'reflect-metadata'");
    expect(error.message).toContain('manifest');
    expect(toolkit.getAllTools()).toEqual([]);
  });

  it('REFLECT_METADATA_MISSING names the import to add when reflect-metadata was not loaded', () => {
    class Fine {
      @Tool({ description: 'd' })
      run() {
        return 1;
      }
    }
    const reflect = Reflect as unknown as Record<string, unknown>;
    const getMetadata = reflect.getMetadata;
    delete reflect.getMetadata;
    try {
      const error = thrown(() => newToolkit().registerTool(Fine), 'REFLECT_METADATA_MISSING');
      expect(error.message).toContain("import 'reflect-metadata'");
    } finally {
      reflect.getMetadata = getMetadata;
    }
  });

  it('a manifest supplies what missing decorator metadata cannot (names, schemas, description)', async () => {
    class FromManifest {
      greet(name: string, times?: number) {
        return `hi ${name} x${times ?? 1}`;
      }
    }
    Reflect.decorate([Tool()], FromManifest.prototype, 'greet', Object.getOwnPropertyDescriptor(FromManifest.prototype, 'greet')!);
    const manifest: ToolManifest = {
      version: 1,
      generator: 'toolwright-schema',
      classes: {
        FromManifest: {
          file: 'x.ts',
          methods: {
            greet: {
              description: 'Greets someone',
              params: [
                { name: 'name', index: 0, optional: false, kind: 'model', schema: { type: 'string' }, description: 'Who' },
                { name: 'times', index: 1, optional: true, kind: 'model', schema: { type: 'integer' } },
              ],
            },
          },
        },
      },
    };
    const toolkit = newToolkit({ manifest });
    toolkit.registerTool(FromManifest);
    expect(toolkit.getToolSchemas()).toEqual([
      {
        name: 'greet',
        description: 'Greets someone',
        parameters: {
          type: 'object',
          properties: { name: { type: 'string', description: 'Who' }, times: { type: 'integer' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    ]);
    expect((await call(toolkit, 'greet', { name: 'Ann', times: 2 })).forLLM).toBe('hi Ann x2');
  });

  it.each([['get weather'], ['a.b'], ['x'.repeat(65)], ['']])('INVALID_NAME for %j', (name) => {
    class BadName {
      @Tool({ name, description: 'd' })
      run() {
        return 1;
      }
    }
    const error = thrown(() => newToolkit().registerTool(BadName), name === '' ? 'INVALID_NAME' : 'INVALID_NAME');
    expect(error.message).toContain('BadName.run');
    expect(error.message).toContain('^[a-zA-Z0-9_-]{1,64}$');
  });

  it('INVALID_DEFINITION for an array without an item type, naming the parameter and the fixes', () => {
    class NoItems {
      @Tool({ description: 'd' })
      run(@ToolParam({ name: 'tags' }) tags: string[]) {
        return tags;
      }
    }
    const error = thrown(() => newToolkit().registerTool(NoItems), 'INVALID_DEFINITION');
    expect(error.message).toContain('NoItems.run');
    expect(error.message).toContain("parameter 'tags' (#0)");
    expect(error.message).toContain('type: () => [String]');
    expect(error.message).toContain('items');
  });

  it('an array with items given by the schema fragment is fine', () => {
    class SchemaItems {
      @Tool({ description: 'd' })
      run(@ToolParam({ name: 'tags', schema: { items: { type: 'string' } } }) tags: string[]) {
        return tags;
      }
    }
    const toolkit = newToolkit();
    toolkit.registerTool(SchemaItems);
    expect(toolkit.getTool('run')!.parameters.properties.tags).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it.each([
    ['an interface', 'shape'],
    ['a union', 'value'],
  ])('INVALID_DEFINITION for %s type with no schema', (_label, param) => {
    class Opaque {
      @Tool({ description: 'd' })
      shape(@ToolParam({ name: 'shape' }) shape: Shape) {
        return shape;
      }
    }
    class Union {
      @Tool({ description: 'd' })
      value(@ToolParam({ name: 'value' }) value: string | number) {
        return value;
      }
    }
    const target = param === 'shape' ? Opaque : Union;
    const error = thrown(() => newToolkit().registerTool(target), 'INVALID_DEFINITION');
    expect(error.message).toContain(`${target.name}.${param}`);
    expect(error.message).toContain(`parameter '${param}' (#0)`);
    expect(error.message).toContain('schema');
    expect(error.message).toContain('type: () => MyDto');
  });

  it('INVALID_DEFINITION for a parameter class without class-validator decorators', () => {
    class Plain {
      street = '';
    }
    class UsesPlain {
      @Tool({ description: 'd' })
      run(@ToolParam({ name: 'plain' }) plain: Plain) {
        return plain;
      }
    }
    const error = thrown(() => newToolkit().registerTool(UsesPlain), 'INVALID_DEFINITION');
    expect(error.message).toContain('UsesPlain.run');
    expect(error.message).toContain("parameter 'plain' (#0)");
    expect(error.message).toContain('class Plain');
  });

  it('INVALID_DEFINITION at registration (not at the first call) for a schema fragment that is not JSON Schema', () => {
    class BadFragment {
      @Tool({ description: 'd' })
      run(@ToolParam({ name: 'days', schema: { type: 'integer', minimum: 'one' as unknown as number } }) days: number) {
        return days;
      }
    }
    const toolkit = newToolkit();
    const error = thrown(() => toolkit.registerTool(BadFragment), 'INVALID_DEFINITION');
    expect(error.message).toBe(
      "BadFragment.run parameter 'days' (#0): its schema is not a valid JSON Schema (schema/minimum must be number). " +
        'Fix the @ToolParam schema fragment.',
    );
    expect(toolkit.getAllTools()).toEqual([]);
  });

  it('INVALID_DEFINITION for two parameters with one name and for a class without @Tool methods', () => {
    class SameName {
      @Tool({ description: 'd' })
      run(@ToolParam({ name: 'a' }) a: string, @ToolParam({ name: 'a' }) b: string) {
        return a + b;
      }
    }
    expect(thrown(() => newToolkit().registerTool(SameName), 'INVALID_DEFINITION').message).toContain("SameName.run: two parameters are named 'a'");
    class Nothing {}
    expect(thrown(() => newToolkit().registerTool(Nothing), 'INVALID_DEFINITION').message).toContain('Nothing has no @Tool methods');
  });

  it('SERVICE_RESOLUTION_FAILED for an unbound constructor dependency, naming the class and the fix', () => {
    @injectable()
    class Database {}
    @ToolService()
    class NeedsDb {
      constructor(@inject(Database) readonly db: Database) {}

      @Tool({ description: 'd' })
      run() {
        return 'x';
      }
    }
    const container = new Container();
    const toolkit = newToolkit({ container });
    const error = thrown(() => toolkit.registerTool(NeedsDb), 'SERVICE_RESOLUTION_FAILED');
    expect(error.message).toContain('NeedsDb could not be resolved');
    expect(error.message).toContain('Database');
    expect(error.message).toContain('new Toolkit({ container })');
    expect(error.cause).toBeDefined();
    expect(toolkit.getAllTools()).toEqual([]);
    // the failed attempt leaves the user's container as it was, and a fixed container works
    expect(container.isBound(NeedsDb)).toBe(false);
    container.bind(Database).toSelf();
    toolkit.registerTool(NeedsDb);
    expect(toolkit.getAllTools().map((t) => t.name)).toEqual(['run']);
  });

  it('decorators never throw for missing information (a manifest may supply it)', () => {
    expect(() => {
      class Lazy {
        @Tool()
        run(@ToolParam() x: unknown, y: string) {
          return [x, y];
        }
      }
      return Lazy;
    }).not.toThrow();
  });

  it('INVALID_MANIFEST for a manifest file that cannot be read, is not JSON, or is not a manifest', () => {
    expect(thrown(() => loadManifest('/nonexistent/tools.manifest.json'), 'INVALID_MANIFEST').message).toContain(
      'Cannot read the manifest /nonexistent/tools.manifest.json',
    );
    expect(thrown(() => loadManifest(__filename), 'INVALID_MANIFEST').message).toContain('is not valid JSON');
    expect(thrown(() => parseManifest({ generator: 'other', version: 1, classes: {} }), 'INVALID_MANIFEST').message).toBe(
      'the manifest is not a toolwright-schema manifest: "generator" is "other". Regenerate it with toolwright-schema.',
    );
  });
});

describe('atomic registration', () => {
  class Good {
    @Tool({ description: 'good' })
    good() {
      return 'good';
    }
  }
  class Bad {
    @Tool()
    bad() {
      return 'bad';
    }
  }

  it('a failing registration registers nothing, creates no group, binds nothing and emits nothing', () => {
    const container = new Container();
    const toolkit = newToolkit({ container });
    const emissions: string[][] = [];
    const subscription = toolkit.activeTools$.subscribe((tools) => emissions.push(tools.map((t) => t.name)));
    thrown(() => toolkit.registration().tool(Good).tool(Bad).group('g').apply(), 'MISSING_DESCRIPTION');
    thrown(
      () => toolkit.registration().tool(Good).presetParameters({ nope: { x: 1 } }).apply(),
      'INVALID_DEFINITION',
    );
    thrown(
      () => toolkit.registration().tool(Good).presetParameters({ good: { x: 1 } }).apply(),
      'INVALID_DEFINITION',
    );
    subscription.unsubscribe();
    expect(toolkit.getAllTools()).toEqual([]);
    expect(toolkit.getToolGroups()).toEqual([]);
    expect(container.isBound(Good)).toBe(false);
    expect(emissions).toEqual([[]]);
    toolkit.registration().tool(Good).group('g').apply();
    expect(toolkit.getActiveTools().map((t) => t.name)).toEqual(['good']);
  });

  it('names the unknown preset tool and parameter', () => {
    const toolkit = newToolkit();
    const unknownTool = thrown(() => toolkit.registration().tool(Good).presetParameters({ nope: { x: 1 } }).apply(), 'INVALID_DEFINITION');
    expect(unknownTool.message).toContain("'nope'");
    expect(unknownTool.message).toContain('It registers: good');
    const unknownParam = thrown(() => toolkit.registration().tool(Good).presetParameters({ good: { x: 1 } }).apply(), 'INVALID_DEFINITION');
    expect(unknownParam.message).toContain("Good.good: preset(s) 'x' match no parameter of tool 'good'");
  });

  it('registerTool rejects values that are not tools', () => {
    const toolkit = newToolkit();
    expect(thrown(() => toolkit.registerTool({ nope: true }), 'INVALID_DEFINITION').message).toContain('registerTool() takes');
    expect(thrown(() => toolkit.registerTool(42 as unknown as object), 'INVALID_DEFINITION').message).toContain('registerTool() takes');
  });
});

describe('tools without decorators', () => {
  it('registers a plain AgentTool and calls it with validated arguments and a call context', async () => {
    const seen: [Record<string, unknown>, ToolCallContext][] = [];
    const echo: AgentTool = {
      name: 'echo',
      description: 'Echo the text',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      execute: (args, ctx) => {
        seen.push([args, ctx]);
        return `echo: ${String(args.text)}`;
      },
    };
    const toolkit = newToolkit();
    expect(toolkit.registerTool(echo)).toEqual([echo]);
    expect(toolkit.getToolSchemas()).toEqual([{ name: 'echo', description: 'Echo the text', parameters: echo.parameters }]);
    const result = await toolkit.callTool({ id: 'c-1', name: 'echo', arguments: '{"text":"hi"}' });
    expect(result).toEqual({ forLLM: 'echo: hi', silent: false, isError: false, async: false, toolCallId: 'c-1', name: 'echo' });
    expect(seen[0][0]).toEqual({ text: 'hi' });
    expect(seen[0][1]).toMatchObject({ callId: 'c-1', toolName: 'echo', attempt: 1 });
    expect(seen[0][1].signal).toBeInstanceOf(AbortSignal);
    expect((await call(toolkit, 'echo', { text: 3 })).error?.code).toBe('INVALID_ARGUMENTS');
    expect(seen).toHaveLength(1);
  });

  it('rejects AgentTools with a bad name, no description, a non-object root or an invalid schema', () => {
    const toolkit = newToolkit();
    const base = { description: 'd', parameters: { type: 'object' as const, properties: {} }, execute: () => 'x' };
    expect(thrown(() => toolkit.registerTool({ ...base, name: 'a b' }), 'INVALID_NAME').message).toContain("AgentTool 'a b'");
    expect(thrown(() => toolkit.registerTool({ ...base, name: 'n', description: ' ' }), 'MISSING_DESCRIPTION').message).toContain("AgentTool 'n'");
    expect(
      thrown(() => toolkit.registerTool({ ...base, name: 'n', parameters: { type: 'string' } as never }), 'INVALID_DEFINITION').message,
    ).toContain("type 'object'");
    expect(
      thrown(() => toolkit.registerTool({ ...base, name: 'n', parameters: { type: 'object', properties: { a: { type: 'strng' } } } as never }), 'INVALID_DEFINITION')
        .message,
    ).toContain('not a valid JSON Schema');
    expect(toolkit.getAllTools()).toEqual([]);
  });

  class UserContext {
    constructor(readonly id: string) {}
  }
  class TenantContext {
    constructor(readonly id: string) {}
  }

  it('calls setContext of a ContextualTool once, before execute, with the call context', async () => {
    const order: string[] = [];
    const tool: ContextualTool = {
      name: 'ordered',
      description: 'Order of calls',
      parameters: { type: 'object', properties: {} },
      setContext(context: ToolExecutionContext, ctx: ToolCallContext) {
        order.push(`setContext:${context.get(UserContext)?.id ?? '-'}:${ctx.callId}`);
      },
      execute(_args: Record<string, unknown>, ctx: ToolCallContext) {
        order.push(`execute:${ctx.context.get(UserContext)?.id ?? '-'}`);
        return 'ok';
      },
    };
    const toolkit = newToolkit();
    toolkit.registerTool(tool);
    await toolkit.callTool({ id: 'c-9', name: 'ordered', arguments: {} }, { context: ToolExecutionContext.of(new UserContext('u')) });
    await toolkit.callTool({ id: 'c-10', name: 'ordered', arguments: {} });
    expect(order).toEqual(['setContext:u:c-9', 'execute:u', 'setContext:-:c-10', 'execute:-']);
  });

  it('calls setContext of a ContextualTool before execute with the merged context chain', async () => {
    const received: ToolExecutionContext[] = [];
    const tool: ContextualTool = {
      name: 'whoami',
      description: 'Who am I',
      parameters: { type: 'object', properties: {} },
      current: undefined as ToolExecutionContext | undefined,
      setContext(context: ToolExecutionContext) {
        received.push(context);
        (this as { current?: ToolExecutionContext }).current = context;
      },
      execute(_args: Record<string, unknown>, ctx: ToolCallContext) {
        const current = (this as { current?: ToolExecutionContext }).current!;
        return `${current.get(UserContext)?.id ?? '-'}@${current.get(TenantContext)?.id ?? '-'}|${ctx.context.get(TenantContext)?.id ?? '-'}`;
      },
    } as ContextualTool;
    const toolkit = newToolkit({ context: ToolExecutionContext.of(new TenantContext('acme'), new UserContext('toolkit-user')) });
    toolkit.registerTool(tool);
    const result = await call(toolkit, 'whoami', {}, { context: ToolExecutionContext.of(new UserContext('call-user')) });
    expect(received).toHaveLength(1);
    expect(result.forLLM).toBe('call-user@acme|acme');
    expect(received[0].get(UserContext)?.id).toBe('call-user');
    expect(received[0].get(TenantContext)?.id).toBe('acme');
  });

  it('hands an AsyncTool its callback at registration; completion reaches events$ and onAsyncComplete', async () => {
    let callback: AsyncCallback | undefined;
    const callbacks: AsyncCallback[] = [];
    const tool: AsyncTool = {
      name: 'render',
      description: 'Render a video',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      setCallback(cb) {
        callbacks.push(cb);
        callback = cb;
      },
      execute: () => asyncResult('Rendering started; you will get the result later.'),
    };
    const toolkit = newToolkit();
    toolkit.registerTool(tool);
    expect(callbacks).toHaveLength(1);

    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    const first = await toolkit.callTool({ id: 'job-1', name: 'render', arguments: { id: 'v1' } }, { onAsyncComplete: (r) => completed.push(r) });
    expect(first).toMatchObject({ async: true, isError: false, toolCallId: 'job-1', forLLM: 'Rendering started; you will get the result later.' });
    expect(completed).toEqual([]);

    callback!({ forLLM: 'video ready', silent: false, isError: false, async: false, toolCallId: 'job-1' });
    const expected = { forLLM: 'video ready', silent: false, isError: false, async: false, toolCallId: 'job-1', name: 'render' };
    expect(completed).toEqual([expected]);
    const asyncEvents = recorder.events.filter((e) => e.type === 'async_completed');
    expect(asyncEvents).toEqual([{ type: 'async_completed', callId: 'job-1', tool: 'render', timestamp: expect.any(Number), result: expected }]);

    // a second completion of the same call reaches events$ only (the listener was consumed)
    callback!({ forLLM: 'again', silent: false, isError: false, async: false, toolCallId: 'job-1' });
    expect(completed).toHaveLength(1);
    recorder.stop();
  });

  it('registers an instance of a decorated class as it is (no container resolution)', async () => {
    class Counter {
      constructor(private count: number) {}

      @Tool({ description: 'Count' })
      next() {
        return String(++this.count);
      }
    }
    const container = new Container();
    const toolkit = newToolkit({ container });
    toolkit.registerTool(new Counter(41));
    expect((await call(toolkit, 'next', {})).forLLM).toBe('42');
    expect(container.isBound(Counter)).toBe(false);
  });

  it('inherits @Tool methods and their parameters from a base class', async () => {
    class Base {
      @Tool({ description: 'Hello' })
      hello(@ToolParam({ name: 'who' }) who: string) {
        return `hello ${who}`;
      }
    }
    class Derived extends Base {
      @Tool({ description: 'Bye' })
      bye() {
        return 'bye';
      }
    }
    const toolkit = newToolkit();
    toolkit.registerTool(Derived);
    expect(toolkit.getAllTools().map((t) => t.name).sort()).toEqual(['bye', 'hello']);
    expect((await call(toolkit, 'hello', { who: 'you' })).forLLM).toBe('hello you');
  });
});

describe('a DTO parameter without @ToolParam', () => {
  it('is a definition-time error, not a context object that fails at call time', () => {
    class OrderDto {
      @IsString() sku!: string;
    }
    class Shop {
      @Tool({ description: 'Order' })
      order(dto: OrderDto): string {
        return dto.sku;
      }
    }
    const toolkit = newToolkit();
    expect(() => toolkit.registerTool(Shop)).toThrow(/Shop\.order parameter #0: OrderDto carries class-validator decorators.*Add @ToolParam/);
  });
});

describe('@Tool on a static method', () => {
  it('is a definition-time error instead of being silently ignored', () => {
    class Counter {
      @Tool({ description: 'Count' })
      static count(): number {
        return 1;
      }

      @Tool({ description: 'Ping' })
      ping(): string {
        return 'pong';
      }
    }
    expect(() => newToolkit().registerTool(Counter)).toThrow(/Counter\.count: @Tool is on a static method.*drop `static`/);
  });
});

describe('compiled without experimentalDecorators', () => {
  it('a method decorator called as a standard (TC39) decorator throws, naming the method and the tsconfig flag', () => {
    const method = function greet(): string {
      return 'hi';
    };
    const context = { kind: 'method', name: 'greet', static: false, private: false };
    const standard = (decorator: MethodDecorator) => () => (decorator as unknown as (value: unknown, context: unknown) => void)(method, context);
    const error = thrown(standard(Tool({ description: 'Greet' })), 'INVALID_DEFINITION');
    expect(error.message).toBe(
      '@Tool on greet ran as a standard (TC39) decorator, which cannot decorate parameters: toolwright\'s decorators are ' +
        'TypeScript\'s experimental ones. Set "experimentalDecorators": true in the tsconfig.json your compiler reads ' +
        "(Bun reads the project's for the whole run; tsx takes --tsconfig).",
    );
    expect(thrown(standard(Prompt({ description: 'Greet' })), 'INVALID_DEFINITION').message).toContain('@Prompt on greet ran as a standard (TC39) decorator');
    expect(thrown(standard(Resource({ uri: 'a://greet' })), 'INVALID_DEFINITION').message).toContain('@Resource on greet ran as a standard (TC39) decorator');
  });
});
