import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsDateString, IsEmail, IsInt, IsOptional, IsString, IsUrl, Length, Max, Min, ValidateNested } from 'class-validator';
import { Container } from 'inversify';
import { restoreArguments, Tool, ToolParam, type AgentTool, type ObjectJsonSchema } from '../../src';
import { call, expectAllSchemasMetaValid, expectToolResult, newToolkit } from '../support/toolkit';
import { recordEvents } from '../support/events';

afterAll(() => expectAllSchemasMetaValid());

enum Unit {
  Celsius = 'c',
  Fahrenheit = 'f',
}

class GeoDto {
  @IsInt() @Min(-90) @Max(90) lat!: number;
  @IsOptional() @IsInt() @Min(0) @Max(9000) altitude?: number;
}

class AddressDto {
  @IsString() @Length(2, 40) street!: string;
  @IsOptional() @IsInt() @Min(1) number?: number;
  @IsOptional() @ValidateNested() @Type(() => GeoDto) geo?: GeoDto;
}

class ContactDto {
  @IsEmail() email!: string;
  @IsOptional() @IsString() nickname?: string;
  @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => AddressDto) others?: AddressDto[];
}

class WeatherService {
  calls: unknown[][] = [];

  @Tool({ name: 'get_weather', description: 'Get weather information' })
  getWeather(
    @ToolParam({ name: 'city', description: 'City name' }) city: string,
    @ToolParam({ name: 'days', required: false, integer: true, schema: { minimum: 1, maximum: 14 } }) days?: number,
    @ToolParam({ name: 'unit', required: false, type: () => Unit }) unit?: Unit,
  ) {
    this.calls.push([city, days, unit]);
    return `${city}:${days ?? '-'}:${unit ?? '-'}`;
  }

  @Tool({ description: 'Save a contact' })
  saveContact(@ToolParam({ name: 'contact' }) contact: ContactDto, @ToolParam({ name: 'note', required: false }) note?: string) {
    this.calls.push([contact, note]);
    return 'saved';
  }

  @Tool({ description: 'No parameters' })
  ping() {
    this.calls.push([]);
    return 'pong';
  }
}

function setup() {
  const container = new Container();
  const toolkit = newToolkit({ container });
  toolkit.registerTool(WeatherService);
  return { toolkit, service: container.get(WeatherService) };
}

describe('argument forms', () => {
  it('accepts the raw JSON string a model emits and an already-parsed object', async () => {
    const { toolkit, service } = setup();
    expect((await call(toolkit, 'get_weather', '{"city":"Paris","days":3,"unit":"c"}')).forLLM).toBe('Paris:3:c');
    expect((await call(toolkit, 'get_weather', { city: 'Oslo', days: 14 })).forLLM).toBe('Oslo:14:-');
    expect((await call(toolkit, 'get_weather', '  {"city":"Rome"}\n')).forLLM).toBe('Rome:-:-');
    expect(service.calls).toEqual([
      ['Paris', 3, 'c'],
      ['Oslo', 14, undefined],
      ['Rome', undefined, undefined],
    ]);
  });

  it('does not mutate an object argument', async () => {
    const { toolkit } = setup();
    const args = Object.freeze({ city: 'Paris', days: null, unit: null });
    expect((await call(toolkit, 'get_weather', args)).forLLM).toBe('Paris:-:-');
    expect(args).toEqual({ city: 'Paris', days: null, unit: null });
  });

  it('does not mutate (deeply frozen) nested objects of an object argument when dropping nulls', async () => {
    const { toolkit, service } = setup();
    const deepFreeze = <T>(o: T): T => {
      if (typeof o === 'object' && o !== null) {
        Object.freeze(o);
        Object.values(o).forEach(deepFreeze);
      }
      return o;
    };
    const args = deepFreeze({
      contact: { email: 'a@b.co', nickname: null, address: { street: 'Main', number: null, geo: { lat: 1, altitude: null } }, others: [{ street: 'Side', geo: null }] },
      note: null,
    });
    const before = JSON.stringify(args);
    const result = await call(toolkit, 'save_contact', args);
    expect(result).toMatchObject({ isError: false, forLLM: 'saved' });
    expect(JSON.stringify(args)).toBe(before);
    const [contact] = service.calls[0] as [ContactDto];
    expect(contact.address.geo!.altitude).toBeUndefined();
    expect(contact.others![0].geo).toBeUndefined();
  });

  it('treats an empty (or blank) string as {}', async () => {
    const { toolkit, service } = setup();
    expect((await call(toolkit, 'ping', '')).forLLM).toBe('pong');
    expect((await call(toolkit, 'ping', '   ')).forLLM).toBe('pong');
    const missing = await call(toolkit, 'get_weather', '');
    expect(missing.error).toEqual({
      code: 'INVALID_ARGUMENTS',
      message: "Invalid arguments for tool 'get_weather':\n- 'city': is required but missing\nFix these and call the tool again.",
    });
    expect(service.calls).toEqual([[], []]);
  });

  it('rejects malformed JSON with MALFORMED_ARGUMENTS naming the tool and its parameters', async () => {
    const { toolkit, service } = setup();
    for (const text of ['{"city":', '{city: "Paris"}', "{'city':'Paris'}", 'Paris', '{"city":"Paris"} trailing', '\u0000']) {
      const result = await call(toolkit, 'get_weather', text);
      expectToolResult(result);
      expect(result.error?.code).toBe('MALFORMED_ARGUMENTS');
      expect(result.forLLM).toMatch(/^Arguments for tool 'get_weather' are not valid JSON \(.+\)\. Send one JSON object with the parameters: city, days, unit\.$/s);
    }
    expect(service.calls).toEqual([]);
  });

  it.each([
    ['[1,2]', 'an array'],
    ['42', 'number'],
    ['null', 'null'],
    ['"Paris"', 'string'],
    ['true', 'boolean'],
  ])('rejects the non-object JSON %s', async (text, got) => {
    const { toolkit, service } = setup();
    const result = await call(toolkit, 'get_weather', text);
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'MALFORMED_ARGUMENTS', message: `Arguments for tool 'get_weather' must be a JSON object, got ${got}.` },
      name: 'get_weather',
    });
    expect(service.calls).toEqual([]);
  });

  it('rejects non-object values passed as the arguments object', async () => {
    const { toolkit } = setup();
    expect((await call(toolkit, 'get_weather', [] as never)).forLLM).toBe("Arguments for tool 'get_weather' must be a JSON object, got an array.");
    expect((await call(toolkit, 'get_weather', null as never)).forLLM).toBe("Arguments for tool 'get_weather' must be a JSON object, got null.");
    expect((await call(toolkit, 'get_weather', 5 as never)).forLLM).toBe("Arguments for tool 'get_weather' must be a JSON object, got number.");
  });
});

describe('invalid arguments', () => {
  it('lists every failing field and why, and never calls the method', async () => {
    const { toolkit, service } = setup();
    const result = await call(toolkit, 'get_weather', '{"days":2.5,"unit":"kelvin","extra":1,"other":true}');
    expect(result).toEqual({
      forLLM: expect.any(String),
      silent: false,
      isError: true,
      async: false,
      error: { code: 'INVALID_ARGUMENTS', message: expect.any(String) },
      toolCallId: expect.any(String),
      name: 'get_weather',
    });
    const lines = result.forLLM.split('\n');
    expect(lines[0]).toBe("Invalid arguments for tool 'get_weather':");
    expect(lines.at(-1)).toBe('Fix these and call the tool again.');
    expect(lines.slice(1, -1).sort()).toEqual(
      [
        "- 'city': is required but missing",
        "- 'days': must be integer, got number",
        "- 'unit': must be one of [\"c\",\"f\"], got \"kelvin\"",
        "- 'extra': is not a parameter of this tool (remove it)",
        "- 'other': is not a parameter of this tool (remove it)",
      ].sort(),
    );
    expect(service.calls).toEqual([]);
  });

  it.each([
    [{ city: 5 }, "- 'city': must be string, got integer"],
    [{ city: null }, "- 'city': must be string, got null"],
    [{ city: ['Paris'] }, "- 'city': must be string, got array"],
    [{ city: 'P', days: '3' }, "- 'days': must be integer, got string"],
    [{ city: 'P', days: 0 }, "- 'days': must be >= 1 (got 0)"],
    [{ city: 'P', days: 15 }, "- 'days': must be <= 14 (got 15)"],
    [{ city: 'P', days: true }, "- 'days': must be integer, got boolean"],
    [{ city: 'P', unit: 'C' }, "- 'unit': must be one of [\"c\",\"f\"], got \"C\""],
    [{ city: 'P', unit: 1 }, "- 'unit': must be string, got integer"],
  ])('%j → %s', async (args, line) => {
    const { toolkit, service } = setup();
    const result = await call(toolkit, 'get_weather', args);
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM.split('\n')).toContain(line);
    expect(service.calls).toEqual([]);
  });

  it('lists nested DTO errors with their paths', async () => {
    const { toolkit, service } = setup();
    const result = await call(toolkit, 'save_contact', {
      contact: {
        email: 'not-an-email',
        address: { street: 'M', number: 0, geo: { lat: 91, altitude: 'high' }, floor: 2 },
        others: [{ street: 'Ok street' }, { number: 2 }],
      },
      note: 7,
    });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM.split('\n').slice(1, -1).sort()).toEqual(
      [
        "- 'contact.email': must match format \"email\" (got \"not-an-email\")",
        "- 'contact.address.street': must NOT have fewer than 2 characters (got \"M\")",
        "- 'contact.address.number': must be >= 1 (got 0)",
        "- 'contact.address.geo.lat': must be <= 90 (got 91)",
        "- 'contact.address.geo.altitude': must be integer, got string",
        "- 'contact.address.floor': is not a parameter of this tool (remove it)",
        "- 'contact.others[1].street': is required but missing",
        "- 'note': must be string, got integer",
      ].sort(),
    );
    expect(service.calls).toEqual([]);
  });

  it('rejects a property named like an Object.prototype member', async () => {
    const { toolkit, service } = setup();
    for (const text of ['{"city":"P","constructor":{}}', '{"city":"P","__proto__":{"polluted":1}}', '{"city":"P","toString":null}']) {
      const result = await call(toolkit, 'get_weather', text);
      expect(result.error?.code).toBe('INVALID_ARGUMENTS');
      expect(result.forLLM).toContain('is not a parameter of this tool (remove it)');
    }
    expect(service.calls).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('validates AgentTool arguments against their own schema (additional properties allowed unless forbidden)', async () => {
    const seen: Record<string, unknown>[] = [];
    const open: AgentTool = {
      name: 'open',
      description: 'Open schema',
      parameters: { type: 'object', properties: { q: { type: 'string', minLength: 1 }, n: { type: 'integer' } }, required: ['q'] },
      execute: (args) => {
        seen.push(args);
        return 'ok';
      },
    };
    const toolkit = newToolkit();
    toolkit.registerTool(open);
    expect((await call(toolkit, 'open', { q: 'x', extra: 1, n: null })).forLLM).toBe('ok');
    expect(seen).toEqual([{ q: 'x', extra: 1 }]);
    const bad = await call(toolkit, 'open', { q: '' });
    expect(bad.forLLM).toBe("Invalid arguments for tool 'open':\n- 'q': must NOT have fewer than 1 characters (got \"\")\nFix these and call the tool again.");
  });
});

describe('null means absent for optionals', () => {
  it('drops null optionals at the top level', async () => {
    const { toolkit, service } = setup();
    expect((await call(toolkit, 'get_weather', '{"city":"Paris","days":null,"unit":null}')).forLLM).toBe('Paris:-:-');
    expect(service.calls).toEqual([['Paris', undefined, undefined]]);
  });

  it('drops null optionals inside DTOs and arrays of DTOs, on every call', async () => {
    const { toolkit, service } = setup();
    for (let i = 0; i < 3; i++) {
      const result = await call(toolkit, 'save_contact', {
        contact: {
          email: 'a@b.co',
          nickname: null,
          address: { street: 'Main', number: null, geo: { lat: 1, altitude: null } },
          others: [{ street: 'Side', number: null, geo: null }],
        },
        note: null,
      });
      expect(result.isError).toBe(false);
    }
    expect(service.calls).toHaveLength(3);
    const [contact, note] = service.calls[2] as [ContactDto, string | undefined];
    expect(note).toBeUndefined();
    // (class fields may exist as own undefined properties on instances: check values, not keys)
    expect(contact.nickname).toBeUndefined();
    expect(contact.address.number).toBeUndefined();
    expect(contact.address.geo!.altitude).toBeUndefined();
    expect(contact.others![0].number).toBeUndefined();
    expect(contact.others![0].geo).toBeUndefined();
  });

  it('applies the one null rule of restoreArguments: a null that is a valid value stays, at any depth', async () => {
    const schema: ObjectJsonSchema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: ['string', 'null'] },
        c: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        d: { $ref: '#/$defs/Box' },
        e: { type: 'array', items: { $ref: '#/$defs/Box' } },
      },
      $defs: { Box: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number', nullable: true } } } },
    };
    const received: unknown[] = [];
    const toolkit = newToolkit();
    toolkit.registerTool({ name: 'nulls', description: 'Takes nulls', parameters: schema, execute: (args) => (received.push(args), 'ok') });
    const sent = { a: null, b: null, c: null, d: { x: null, y: null }, e: [{ x: null, y: null }] };
    expect((await call(toolkit, 'nulls', JSON.stringify(sent))).forLLM).toBe('ok');
    const kept = { b: null, c: null, d: { y: null }, e: [{ y: null }] };
    expect(received).toEqual([kept]);
    expect(restoreArguments(schema, sent, 'openai', { strict: true })).toEqual(kept);
  });

  it('keeps null for a required property an error', async () => {
    const { toolkit } = setup();
    const result = await call(toolkit, 'save_contact', { contact: { email: 'a@b.co', address: null } });
    expect(result.forLLM).toContain("- 'contact.address': must be object, got null");
  });
});

describe('DTO arguments', () => {
  it('arrive as real class instances, nested and in arrays', async () => {
    const { toolkit, service } = setup();
    const result = await call(toolkit, 'save_contact', {
      contact: {
        email: 'a@b.co',
        address: { street: 'Main', number: 3, geo: { lat: 10 } },
        others: [{ street: 'Side' }, { street: 'Back', geo: { lat: -5, altitude: 100 } }],
      },
    });
    expect(result.forLLM).toBe('saved');
    const [contact] = service.calls[0] as [ContactDto];
    expect(contact).toBeInstanceOf(ContactDto);
    expect(contact.address).toBeInstanceOf(AddressDto);
    expect(contact.address.geo).toBeInstanceOf(GeoDto);
    expect(contact.others!.map((o) => o.constructor)).toEqual([AddressDto, AddressDto]);
    expect(contact.others![1].geo).toBeInstanceOf(GeoDto);
    expect(contact).toEqual(
      Object.assign(new ContactDto(), {
        email: 'a@b.co',
        address: Object.assign(new AddressDto(), { street: 'Main', number: 3, geo: Object.assign(new GeoDto(), { lat: 10 }) }),
        others: [
          Object.assign(new AddressDto(), { street: 'Side' }),
          Object.assign(new AddressDto(), { street: 'Back', geo: Object.assign(new GeoDto(), { lat: -5, altitude: 100 }) }),
        ],
      }),
    );
  });

  it('call_started carries the validated arguments; an invalid call gets its start (with what the model sent) before call_failed', async () => {
    const { toolkit } = setup();
    const recorder = recordEvents(toolkit);
    await call(toolkit, 'get_weather', '{"city":"Paris","days":null}');
    await call(toolkit, 'get_weather', '{"city":1}');
    recorder.stop();
    expect(recorder.events.map((e) => e.type)).toEqual(['call_started', 'call_succeeded', 'call_started', 'call_failed']);
    expect(recorder.events[0]).toMatchObject({ type: 'call_started', tool: 'get_weather', arguments: { city: 'Paris' } });
    expect(recorder.events[2]).toMatchObject({ type: 'call_started', tool: 'get_weather', arguments: { city: 1 } });
    expect(recorder.events[3]).toMatchObject({ type: 'call_failed', error: { code: 'INVALID_ARGUMENTS' }, attempts: 0 });
  });
});

describe('class-validator checks without an exact JSON Schema format', () => {
  it('accept what class-validator accepts (@IsUrl without scheme, @IsDateString with a bare date)', async () => {
    class LinkDto {
      @IsUrl() url!: string;
      @IsDateString() on!: string;
    }
    class Links {
      @Tool({ name: 'save_link', description: 'Save a link' })
      save(@ToolParam({ name: 'link' }) link: LinkDto): string {
        return `${link.url}@${link.on}`;
      }
    }
    const toolkit = newToolkit();
    toolkit.registerTool(Links);
    expect(toolkit.getToolSchemas()[0].parameters.properties.link).toMatchObject({
      properties: { url: { type: 'string' }, on: { type: 'string' } },
    });
    const ok = await toolkit.callTool({ id: 'l1', name: 'save_link', arguments: { link: { url: 'example.com', on: '2026-11-22' } } });
    expect(ok.forLLM).toBe('example.com@2026-11-22');
    const bad = await toolkit.callTool({ id: 'l2', name: 'save_link', arguments: { link: { url: 'not a url', on: 'soon' } } });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.forLLM).toContain("'link.url'");
    expect(bad.forLLM).toContain("'link.on'");
  });
});
