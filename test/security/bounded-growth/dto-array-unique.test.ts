import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayUnique, arrayUnique, getFromContainer, getMetadataStorage, IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Tool, ToolParam } from '../../../src';
import { transformAndValidate } from '../../../src/executor/validation/dto-array-unique';
import { call, newToolkit } from '../../support/toolkit';

/**
 * Loose, so that a loaded machine passes: the call is linear in its 10 MB of JSON, while
 * class-validator's pairwise check took 5.25 s for 20,000 of these strings and grows with the
 * square of their number (about 21 s for 40,000).
 */
const BLOCK_MS = 8_000;
const COUNT = 40_000;
/** Distinct strings of one length sharing a long prefix: each pairwise comparison reads them far. */
const distinct = (i: number): string => `${'x'.repeat(256)}${String(i).padStart(6, '0')}`;

class TagsDto {
  @IsArray() @ArrayUnique() tags!: string[];
}

class ItemDto {
  @IsString() id!: string;
  @IsOptional() @IsString() note?: string;
}

class ItemsDto {
  @IsArray() @ValidateNested({ each: true }) @Type(() => ItemDto) @ArrayUnique((o: ItemDto) => o.id) items!: ItemDto[];
}

/** The same DTO without `@ArrayUnique()`: what class-transformer and class-validator cost anyway. */
class PlainItemsDto {
  @IsArray() @ValidateNested({ each: true }) @Type(() => ItemDto) items!: ItemDto[];
}

const received: unknown[] = [];

class TagService {
  @Tool({ description: 'Save tags' })
  saveTags(@ToolParam({ name: 'input' }) input: TagsDto) {
    received.push(input);
    return `saved ${input.tags.length}`;
  }

  @Tool({ description: 'Save items' })
  saveItems(@ToolParam({ name: 'input' }) input: ItemsDto) {
    received.push(input);
    return `saved ${input.items.length}`;
  }

  @Tool({ description: 'Save items, duplicates allowed' })
  savePlainItems(@ToolParam({ name: 'input' }) input: PlainItemsDto) {
    return `saved ${input.items.length}`;
  }
}

const toolkit = newToolkit();
toolkit.registerTool(TagService);

/** Calls `name` with `args` sent as JSON text (as a model sends them), timing the call. */
async function timed(name: string, args: Record<string, unknown>) {
  const text = JSON.stringify(args);
  const started = performance.now();
  const result = await call(toolkit, name, text);
  return { result, ms: performance.now() - started };
}

beforeAll(async () => {
  // the first DTO call loads class-transformer and class-validator and compiles the schema: not what is timed
  await call(toolkit, 'save_tags', { input: { tags: ['warm'] } });
  await call(toolkit, 'save_items', { input: { items: [{ id: 'warm' }] } });
});

beforeEach(() => {
  received.length = 0;
});

describe('class-validator @ArrayUnique() in a DTO checks in linear time', () => {
  it('40,000 distinct strings: answered quickly, the tool runs once with the value', async () => {
    const tags = Array.from({ length: COUNT }, (_, i) => distinct(i));
    const { result, ms } = await timed('save_tags', { input: { tags } });
    expect(result.forLLM).toBe(`saved ${COUNT}`);
    expect(ms).toBeLessThan(BLOCK_MS);
    expect(received).toHaveLength(1);
    expect(received[0]).toBeInstanceOf(TagsDto);
    expect((received[0] as TagsDto).tags).toEqual(tags);
  });

  it('40,000 objects with an identifier: answered quickly, the tool runs once with the value', async () => {
    const items = Array.from({ length: COUNT }, (_, i) => ({ id: distinct(i) }));
    // class-transformer and the nested validation cost the same with or without the check
    const plain = (await timed('save_plain_items', { input: { items } })).ms;
    const { result, ms } = await timed('save_items', { input: { items } });
    expect(result.forLLM).toBe(`saved ${COUNT}`);
    expect(ms).toBeLessThan(2 * plain + BLOCK_MS);
    expect(received).toHaveLength(1);
    const saved = received[0] as ItemsDto;
    expect(saved.items[0]).toBeInstanceOf(ItemDto);
    expect(saved.items.map((item) => item.id)).toEqual(items.map((item) => item.id));
  });

  it('a duplicate is still refused with class-validator message, and the tool never runs', async () => {
    // distinct as JSON (the schema's uniqueItems passes), one id twice: only the identifier sees it
    const items = [{ id: 'a', note: 'first' }, { id: 'b' }, { id: 'a', note: 'second' }];
    const refused = await call(toolkit, 'save_items', { input: { items } });
    expect(refused.error?.code).toBe('INVALID_ARGUMENTS');
    expect(refused.forLLM).toContain("All items's elements must be unique");
    const tags = await call(toolkit, 'save_tags', { input: { tags: ['x', 'y', 'x'] } });
    expect(tags.error?.code).toBe('INVALID_ARGUMENTS');
    expect(received).toHaveLength(0);
  });
});

class PlainUniqueDto {
  @ArrayUnique() values!: unknown[];
}

class KeyedUniqueDto {
  @ArrayUnique((o: { id?: unknown }) => o.id) values!: unknown[];
}

const byId = (o: { id?: unknown }) => o.id;

type Validate = (value: unknown, args: unknown) => unknown;

/** The `validate` class-validator calls for the `@ArrayUnique()` of `dto`, and the constraint's original one. */
function constraintOf(dto: new () => object): { instance: { validate: Validate }; original: Validate } {
  const [metadata] = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((entry) => entry.name === 'arrayUnique');
  const instance = getFromContainer(metadata.constraintCls) as { validate: Validate };
  return { instance, original: instance.validate };
}

/** A small pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('the linear @ArrayUnique() gives class-validator arrayUnique verdicts', () => {
  const next = random(42);
  const shared = { id: 'shared' };
  const atoms: unknown[] = ['a', 'b', '', 'A', 0, -0, 1, 1.5, Number.NaN, Infinity, null, undefined, true, false, shared];
  const keyed: unknown[] = [null, undefined, shared, { id: 'shared' }, { id: 0 }, { id: -0 }, { id: Number.NaN }, { id: null }, { id: 'a' }, { id: 'b' }, {}, 'text', 3];
  const pick = (pool: unknown[]) => pool[Math.floor(next() * pool.length)];
  const randomArray = (pool: unknown[]) => Array.from({ length: Math.floor(next() * 8) }, () => (next() < 0.3 ? next() * 1e6 : pick(pool)));
  const sparse = (): unknown[] => {
    const holes: unknown[] = ['a'];
    holes[2] = 'b';
    return holes;
  };

  it('without an identifier: strings, numbers (NaN, 0, -0), null, duplicates, shared objects, non-arrays', async () => {
    const { instance, original } = constraintOf(PlainUniqueDto);
    await transformAndValidate(PlainUniqueDto, { values: [] });
    expect(instance.validate).not.toBe(original);
    const cases: unknown[] = [[], [Number.NaN], [0, -0], [null, null], [undefined], 'ab', null, { length: 0 }, sparse()];
    for (let i = 0; i < 400; i++) cases.push(randomArray(atoms));
    for (const value of cases) expect([value, instance.validate(value, { constraints: undefined })]).toEqual([value, arrayUnique(value as unknown[])]);
  });

  it('with an identifier: objects keyed by id (NaN, 0, -0, null ids), null items, items without id', async () => {
    const { instance, original } = constraintOf(KeyedUniqueDto);
    await transformAndValidate(KeyedUniqueDto, { values: [] });
    expect(instance.validate).not.toBe(original);
    const cases: unknown[] = [[], [{ id: Number.NaN }], [{ id: 0 }, { id: -0 }], [null, null], [null, undefined], [{}, {}], 'ab', sparse()];
    for (let i = 0; i < 400; i++) cases.push(randomArray(keyed).map((item) => (typeof item === 'number' && next() < 0.5 ? { id: item } : item)));
    for (const value of cases) expect([value, instance.validate(value, { constraints: undefined })]).toEqual([value, arrayUnique(value as unknown[], byId)]);
  });
});
