import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Tool, ToolParam } from '../../../src';
import { call, newToolkit } from '../../support/toolkit';

class AddressDto {
  @IsString() street!: string;
}

class ContactDto {
  @IsString() name!: string;
  @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
  @IsOptional() @IsObject() meta?: Record<string, unknown>;
}

const received: unknown[] = [];

class ContactService {
  @Tool({ description: 'Save a contact' })
  saveContact(@ToolParam({ name: 'contact' }) contact: ContactDto) {
    received.push(contact);
    return contact instanceof ContactDto ? 'saved' : 'not a DTO';
  }

  @Tool({ description: 'Save contacts' })
  saveContacts(@ToolParam({ name: 'contacts', type: () => [ContactDto] }) contacts: ContactDto[]) {
    received.push(contacts);
    return 'saved';
  }

  @Tool({ description: 'Store free-form data' })
  store(@ToolParam({ name: 'data', schema: { type: 'object' } }) data: Record<string, unknown>) {
    received.push(data);
    return Object.keys(data).join(',');
  }
}

const toolkit = newToolkit();
toolkit.registerTool(ContactService);

const HOSTILE_KEYS = ['constructor', '__proto__', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__'];
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

function expectNoPollution(): void {
  expect(({} as Record<string, unknown>).x).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(typeof Object.prototype.hasOwnProperty).toBe('function');
}

/** JSON text keeps `__proto__` a plain key (an object literal would set the prototype). */
const contactJson = (key: string) => `{"contact":{"name":"a","address":{"street":"s"},"meta":{"ok":1,"nested":{${JSON.stringify(key)}:{"x":1}}}}}`;

describe('DTO keys: built-in member names are rejected with a clear message, never crash or pollute', () => {
  afterEach(() => expectNoPollution());

  it.each(HOSTILE_KEYS)('%s inside a free-form object of a DTO is INVALID_ARGUMENTS naming the path', async (key) => {
    received.length = 0;
    const result = await call(toolkit, 'save_contact', contactJson(key));
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM).toContain(`- 'contact.meta.nested.${key}': the key '${key}' names a built-in object member and cannot be used here; rename or remove it`);
    expect(received).toEqual([]);
  });

  it('the same inside an array of DTOs', async () => {
    const result = await call(toolkit, 'save_contacts', `{"contacts":[{"name":"a","address":{"street":"s"}},{"name":"b","address":{"street":"s"},"meta":{"constructor":1}}]}`);
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM).toContain("'contacts[1].meta.constructor': the key 'constructor'");
  });

  it('other keys in a free-form DTO object stay data', async () => {
    received.length = 0;
    const result = await call(toolkit, 'save_contact', contactJson('prototype'));
    expect(result).toMatchObject({ isError: false, forLLM: 'saved' });
    expect((received[0] as ContactDto).meta).toEqual({ ok: 1, nested: { prototype: { x: 1 } } });
  });

  it.each(HOSTILE_KEYS)('%s in a plain object argument is kept as data', async (key) => {
    received.length = 0;
    const result = await call(toolkit, 'store', `{"data":{${JSON.stringify(key)}:{"x":1}}}`);
    expect(result).toMatchObject({ isError: false, forLLM: key });
    expect(Object.prototype.hasOwnProperty.call(received[0], key)).toBe(true);
  });
});
