import 'reflect-metadata';
import { ArrayUnique, IsArray, IsObject } from 'class-validator';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolParam, type JsonSchema, type Toolkit, type ToolResult } from '../../../src';
import { importMcpTools } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { call, newToolkit } from '../../support/toolkit';
import { hostileMcpServer } from '../../support/hostile-mcp-server';

/**
 * The most one hostile 100 KB argument may block the process: a linear check takes a few ms (up
 * to 100 on a loaded 2-core machine); the quadratic ones this file guards against take seconds.
 */
const BLOCK_MS = 500;
const SIZE = 100_000;

const closer = new Closer();
afterEach(() => closer.closeAll());

/** `piece` repeated to `size` characters. */
const fill = (piece: string, size = SIZE): string => piece.repeat(Math.ceil(size / piece.length)).slice(0, size);

/** A toolkit with one tool `check` taking `value` of `schema`; `ran` counts its runs. */
function toolWith(schema: JsonSchema): { toolkit: Toolkit; ran: () => number } {
  let runs = 0;
  const toolkit = newToolkit();
  toolkit.registerTool({
    name: 'check',
    description: 'Check a value',
    parameters: { type: 'object', properties: { value: schema }, required: ['value'] },
    execute: () => `ran ${++runs}`,
  });
  return { toolkit, ran: () => runs };
}

/** Calls `name` with `args`, returning the result and how long the call took. */
async function timedCall(toolkit: Toolkit, name: string, args: Record<string, unknown>): Promise<{ result: ToolResult; ms: number }> {
  const started = performance.now();
  const result = await call(toolkit, name, args);
  return { result, ms: performance.now() - started };
}

/** Imports one MCP tool `name` with `inputSchema`; the remote server counts the calls that reach it. */
async function importTool(name: string, inputSchema: McpTool['inputSchema']): Promise<{ toolkit: Toolkit; remoteCalls: () => number }> {
  let calls = 0;
  const client = await hostileMcpServer(
    closer,
    () => ({ tools: [{ name, inputSchema }] }),
    () => {
      calls++;
      return { content: [{ type: 'text', text: 'remote ran' }] };
    },
  );
  const toolkit = newToolkit();
  closer.add(await importMcpTools(client, toolkit));
  return { toolkit, remoteCalls: () => calls };
}

describe('format: "url" answers hostile text in linear time', () => {
  it("an imported tool's url argument: 'ftp://' + 'a:' × 50,000 is refused at once and the remote tool never runs", async () => {
    const { toolkit, remoteCalls } = await importTool('fetch_page', { type: 'object', properties: { url: { type: 'string', format: 'url' } } });
    expect((await call(toolkit, 'fetch_page', { url: 'https://example.com/a' })).forLLM).toBe('remote ran');
    const { result, ms } = await timedCall(toolkit, 'fetch_page', { url: `ftp://${'a:'.repeat(50_000)}` });
    expect(ms).toBeLessThan(BLOCK_MS);
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM).toContain('must match format "url"');
    expect(remoteCalls()).toBe(1);
  });

  it("the app's own tool: 100 KB of ':' after the scheme (a worse case than the reported one), of '@', of hosts to try is refused at once", async () => {
    const { toolkit, ran } = toolWith({ type: 'string', format: 'url' });
    expect((await call(toolkit, 'check', { value: 'http://user:pw@example.com:8080/a' })).forLLM).toBe('ran 1');
    for (const value of [`http://${fill(':')}`, `http://${fill('a@')} `, `https://${fill('a:b@')}`, `http://${fill('x@a.c/')}`]) {
      const { result, ms } = await timedCall(toolkit, 'check', { value });
      expect(ms).toBeLessThan(BLOCK_MS);
      expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    }
    expect(ran()).toBe(1);
  });
});

/** Per format, 100 KB inputs crafted to make its expression backtrack as much as it can. */
const HOSTILE_FORMATS: Readonly<Record<string, readonly string[]>> = {
  date: [fill('1'), `2020-01-01${fill('x')}`],
  time: [`12:00:00.${fill('1')}x`],
  'date-time': [`2020-01-01T12:00:00.${fill('1')}x`, fill('1t')],
  'iso-time': [`12:00:00.${fill('1')}x`],
  'iso-date-time': [`2020-01-01T12:00:00.${fill('1')}x`, fill(' ')],
  duration: [`P${fill('1')}x`, `PT${fill('1')}x`],
  uri: [`a://${fill('a:')} `, `a:${fill('/')} `, `a://${fill('%00')} `, `a://a${fill(':1')} `],
  'uri-reference': [`${fill('a')} `, `//${fill('a:')} `, `${fill('a/')} `, `//${fill('@')} `],
  'uri-template': [`{${fill('a,')} `, `${fill('{a}')} `],
  url: [`ftp://${fill('a:')}`, `http://${fill(':')}`, `http://${fill('a-')}!`, `http://a${fill('.aa')}.`, `http://${fill('x@a.c/')}`],
  email: [`a@${fill('a')}!`, `a@${fill('a.a')}-`, `${fill('a.')}@`],
  hostname: [fill('a'), fill('a-')],
  ipv4: [fill('1.')],
  ipv6: [fill('1:'), `::${fill('1:')}`],
  regex: [fill('(?:a|'), `${fill('(', SIZE / 2)}${fill(')', SIZE / 2)}`, Array.from({ length: 12_000 }, (_, i) => `(?<g${i}>)`).join('').slice(0, SIZE)],
  uuid: [fill('a')],
  'json-pointer': [`/${fill('a')}~`, `${fill('/')}~`],
  'json-pointer-uri-fragment': [`#${fill('/a')}~`],
  'relative-json-pointer': [`0${fill('/a')}~`],
  byte: [`${fill('AAAA')}!`, fill('AAA\n')],
};

describe('every string format answers 100 KB of hostile text in linear time', () => {
  it.each(Object.entries(HOSTILE_FORMATS))('%s', async (format, values) => {
    const { toolkit } = toolWith({ type: 'string', format });
    await call(toolkit, 'check', { value: 'x' }); // compiles the schema: only validation is timed
    for (const value of values) {
      const { result, ms } = await timedCall(toolkit, 'check', { value });
      expect(ms).toBeLessThan(BLOCK_MS);
      expect(result.error === undefined || result.error.code === 'INVALID_ARGUMENTS').toBe(true);
    }
  });
});

/** `count` distinct objects of about 11 bytes each in JSON (`{"id":1234}`). */
const distinctObjects = (count: number) => Array.from({ length: count }, (_, id) => ({ id }));

describe('uniqueItems runs in linear time, with JSON equality', () => {
  it('an imported array of 10,000 objects (109 KB) with one duplicate is refused at once and the remote tool never runs; without it the call goes through', async () => {
    const { toolkit, remoteCalls } = await importTool('store', {
      type: 'object',
      properties: { rows: { type: 'array', items: { type: 'object' }, uniqueItems: true } },
    });
    const rows = distinctObjects(10_000);
    // a duplicate first: the pairwise check, which starts from the end, then compares nearly every pair
    const refused = await timedCall(toolkit, 'store', { rows: [{ id: 5_000.0 }, ...rows] });
    expect(refused.ms).toBeLessThan(BLOCK_MS);
    expect(refused.result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(refused.result.forLLM).toContain("'rows': must NOT have duplicate items (items ## 0 and 5001 are identical)");
    expect(remoteCalls()).toBe(0);
    expect((await call(toolkit, 'store', { rows })).forLLM).toBe('remote ran');
  });

  it("the app's own untyped array: 20,000 distinct strings, and nested arrays whose keys come in another order", async () => {
    const { toolkit, ran } = toolWith({ type: 'array', uniqueItems: true });
    const strings = Array.from({ length: 20_000 }, (_, i) => `s${i}`);
    const accepted = await timedCall(toolkit, 'check', { value: strings });
    expect(accepted.ms).toBeLessThan(BLOCK_MS);
    expect(accepted.result.forLLM).toBe('ran 1');
    const nested = Array.from({ length: 5_000 }, (_, i) => [{ a: i, b: [i, 'x'] }]);
    const refused = await timedCall(toolkit, 'check', { value: [...nested, [{ b: [7, 'x'], a: 7 }]] });
    expect(refused.ms).toBeLessThan(BLOCK_MS);
    expect(refused.result.forLLM).toContain('items ## 7 and 5000 are identical');
    expect(ran()).toBe(1);
  });
});

class BasketDto {
  @IsArray() @ArrayUnique() @IsObject({ each: true }) items!: Record<string, unknown>[];
}

/** The same DTO without `@ArrayUnique()`: what class-transformer and class-validator cost anyway. */
class PlainBasketDto {
  @IsArray() @IsObject({ each: true }) items!: Record<string, unknown>[];
}

let received = 0;

class BasketService {
  @Tool({ description: 'Save a basket' })
  save(@ToolParam({ name: 'basket' }) basket: BasketDto) {
    received++;
    return `saved ${basket.items.length}`;
  }

  @Tool({ description: 'Save a basket, duplicates allowed' })
  savePlain(@ToolParam({ name: 'basket' }) basket: PlainBasketDto) {
    return `saved ${basket.items.length}`;
  }
}

describe('a DTO field with @ArrayUnique() (its schema says uniqueItems; class-validator checks it again)', () => {
  it('10,000 distinct objects cost about what the same DTO without @ArrayUnique() costs; a duplicate is refused and the tool never runs', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(BasketService);
    const items = distinctObjects(10_000);
    // class-transformer's work per object is linear but not small: compare with the same DTO without the check
    const fastest = async (name: string) => Math.min((await timedCall(toolkit, name, { basket: { items } })).ms, (await timedCall(toolkit, name, { basket: { items } })).ms);
    const plain = await fastest('save_plain');
    const unique = await fastest('save');
    expect(unique).toBeLessThan(2 * plain + BLOCK_MS);
    expect(received).toBe(2);
    const refused = await call(toolkit, 'save', { basket: { items: [{ id: 3 }, ...items] } });
    expect(refused.forLLM).toContain("'basket.items': must NOT have duplicate items (items ## 0 and 4 are identical)");
    expect(received).toBe(2);
  });
});
