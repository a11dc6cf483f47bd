import 'reflect-metadata';
import { defer, EMPTY, of, throwError, delay } from 'rxjs';
import {
  asyncResult,
  errorResult,
  isToolResult,
  silentResult,
  Tool,
  toolResult,
  ToolParam,
  userResult,
  type AgentTool,
  type ToolResult,
} from '../../src';
import { call, expectAllSchemasMetaValid, expectToolResult, newToolkit } from '../support/toolkit';

afterAll(() => expectAllSchemasMetaValid());

describe('result helpers', () => {
  it('build the documented shapes', () => {
    expect(toolResult('ok')).toEqual({ forLLM: 'ok', silent: false, isError: false, async: false });
    expect(toolResult('ok', { n: 1 })).toEqual({ forLLM: 'ok', silent: false, isError: false, async: false, data: { n: 1 } });
    expect(silentResult('quiet')).toEqual({ forLLM: 'quiet', silent: true, isError: false, async: false });
    expect(asyncResult('later')).toEqual({ forLLM: 'later', silent: false, isError: false, async: true });
    expect(errorResult('bad')).toEqual({
      forLLM: 'bad',
      silent: false,
      isError: true,
      async: false,
      error: { code: 'EXECUTION_FAILED', message: 'bad' },
    });
    expect(errorResult('nope', 'DENIED').error).toEqual({ code: 'DENIED', message: 'nope' });
    expect(userResult('both')).toEqual({ forLLM: 'both', forUser: 'both', silent: false, isError: false, async: false });
    expect([toolResult('a'), silentResult('b'), asyncResult('c'), errorResult('d'), userResult('e')].every(isToolResult)).toBe(true);
    expect([null, 'x', { forLLM: 'x' }, { forLLM: 1, isError: false, silent: false }].some(isToolResult)).toBe(false);
  });
});

class Circular {
  self: Circular = this;
}

class ReturnService {
  @Tool({ description: 'Returns a value of the requested kind' })
  async produce(@ToolParam({ name: 'kind' }) kind: string): Promise<unknown> {
    switch (kind) {
      case 'string':
        return 'plain text';
      case 'empty-string':
        return '';
      case 'tool-result':
        return toolResult('from helper', { x: 1 });
      case 'silent':
        return silentResult('model only');
      case 'async':
        return asyncResult('started');
      case 'error':
        return errorResult('the helper failed');
      case 'user':
        return userResult('shown to both');
      case 'promise':
        return Promise.resolve('awaited');
      case 'nested-promise':
        return Promise.resolve(Promise.resolve({ deep: true }));
      case 'observable':
        return of('first', 'second', 'last');
      case 'observable-async':
        return of(1, 2, 3).pipe(delay(1));
      case 'observable-result':
        return of(silentResult('observed'));
      case 'observable-empty':
        return EMPTY;
      case 'observable-error':
        return throwError(() => new Error('stream broke'));
      case 'observable-deferred-object':
        return defer(() => of({ a: 1 }));
      case 'object':
        return { city: 'Paris', temps: [21, 19], nested: { ok: true } };
      case 'array':
        return [1, 'two', null];
      case 'number':
        return 42;
      case 'zero':
        return 0;
      case 'boolean':
        return false;
      case 'undefined':
        return undefined;
      case 'null':
        return null;
      case 'bigint':
        return { big: BigInt(10) };
      case 'date':
        return new Date('2024-01-02T03:04:05Z');
      case 'circular':
        return new Circular();
      case 'throw-error':
        throw new Error('kaboom');
      case 'throw-empty-error':
        throw new Error('');
      case 'throw-type-error':
        throw new TypeError('wrong type');
      case 'throw-string':
        throw 'a plain string';
      case 'throw-undefined':
        throw undefined;
      case 'throw-null':
        throw null;
      case 'throw-object':
        throw { status: 503, reason: 'unavailable' };
      case 'throw-number':
        throw 404;
      case 'reject-string':
        return Promise.reject('rejected text');
      default:
        return `unknown kind ${kind}`;
    }
  }

  @Tool({ description: 'Throws synchronously (not async)' })
  syncThrow(): string {
    throw new RangeError('sync failure');
  }

  @Tool({ description: 'Async generator: yields progress, returns the result' })
  async *generate(): AsyncGenerator<string, string> {
    yield 'step 1';
    yield 'step 2';
    return 'generated';
  }
}

const toolkit = newToolkit();
toolkit.registerTool(ReturnService);
const produce = async (kind: string): Promise<ToolResult> => {
  const result = await call(toolkit, 'produce', { kind });
  expectToolResult(result);
  expect(result.name).toBe('produce');
  return result;
};

describe('return value conversion', () => {
  it.each([
    ['string', 'plain text'],
    ['empty-string', ''],
    ['promise', 'awaited'],
    ['observable', 'last'],
  ])('%s → text', async (kind, text) => {
    const result = await produce(kind);
    expect(result).toEqual({ forLLM: text, silent: false, isError: false, async: false, toolCallId: expect.any(String), name: 'produce' });
  });

  it('ToolResults pass through as they are (with the call id and name)', async () => {
    expect(await produce('tool-result')).toMatchObject({ forLLM: 'from helper', data: { x: 1 }, isError: false });
    expect(await produce('silent')).toMatchObject({ forLLM: 'model only', silent: true });
    expect(await produce('async')).toMatchObject({ forLLM: 'started', async: true });
    expect(await produce('user')).toMatchObject({ forLLM: 'shown to both', forUser: 'shown to both' });
    expect(await produce('observable-result')).toMatchObject({ forLLM: 'observed', silent: true });
    const error = await produce('error');
    expect(error).toMatchObject({ isError: true, error: { code: 'EXECUTION_FAILED', message: 'the helper failed' }, forLLM: 'the helper failed' });
  });

  it('anything else becomes JSON text and is kept as data', async () => {
    const object = await produce('object');
    expect(object.forLLM).toBe('{"city":"Paris","temps":[21,19],"nested":{"ok":true}}');
    expect(object.data).toEqual({ city: 'Paris', temps: [21, 19], nested: { ok: true } });
    expect(await produce('array')).toMatchObject({ forLLM: '[1,"two",null]', data: [1, 'two', null] });
    expect(await produce('number')).toMatchObject({ forLLM: '42', data: 42 });
    expect(await produce('zero')).toMatchObject({ forLLM: '0', data: 0 });
    expect(await produce('boolean')).toMatchObject({ forLLM: 'false', data: false });
    expect(await produce('nested-promise')).toMatchObject({ forLLM: '{"deep":true}', data: { deep: true } });
    expect(await produce('observable-async')).toMatchObject({ forLLM: '3', data: 3 });
    expect(await produce('observable-deferred-object')).toMatchObject({ forLLM: '{"a":1}' });
    expect((await produce('bigint')).forLLM).toBe('{"big":"10"}');
    expect((await produce('date')).forLLM).toBe('"2024-01-02T03:04:05.000Z"');
  });

  it('nothing (undefined, null, an empty Observable) becomes a short confirmation', async () => {
    for (const kind of ['undefined', 'null', 'observable-empty']) {
      const result = await produce(kind);
      expect(result).toMatchObject({ forLLM: 'Done.', isError: false });
      expect(result.data).toBeUndefined();
    }
  });

  it('a value that cannot be serialised still gives a result', async () => {
    const result = await produce('circular');
    expect(result.isError).toBe(false);
    expect(typeof result.forLLM).toBe('string');
  });

  it('drains async generators: yields are progress, the return value is the result', async () => {
    const progress: string[] = [];
    const result = await call(toolkit, 'generate', {}, { onProgress: (p) => progress.push(p.message!) });
    expect(result.forLLM).toBe('generated');
    expect(progress).toEqual(['step 1', 'step 2']);
  });
});

describe('thrown values', () => {
  it.each([
    ['throw-error', "Tool 'produce' failed: kaboom"],
    ['throw-empty-error', "Tool 'produce' failed: Error"],
    ['throw-type-error', "Tool 'produce' failed: wrong type"],
    ['throw-string', "Tool 'produce' failed: a plain string"],
    ['throw-undefined', "Tool 'produce' failed: a non-Error value (undefined)"],
    ['throw-null', "Tool 'produce' failed: a non-Error value (null)"],
    ['throw-object', 'Tool \'produce\' failed: a non-Error value: {"status":503,"reason":"unavailable"}'],
    ['throw-number', "Tool 'produce' failed: a non-Error value: 404"],
    ['reject-string', "Tool 'produce' failed: rejected text"],
    ['observable-error', "Tool 'produce' failed: stream broke"],
  ])('%s → EXECUTION_FAILED %j', async (kind, message) => {
    const result = await produce(kind);
    expect(result).toMatchObject({ isError: true, forLLM: message, error: { code: 'EXECUTION_FAILED', message } });
  });

  it('a synchronous throw is caught too', async () => {
    const result = await call(toolkit, 'sync_throw', {});
    expect(result).toMatchObject({ isError: true, error: { code: 'EXECUTION_FAILED', message: "Tool 'sync_throw' failed: sync failure" } });
  });

  it('an AgentTool whose execute throws synchronously, returns a rejected promise or a thenable', async () => {
    const kit = newToolkit();
    const make = (name: string, execute: AgentTool['execute']): AgentTool => ({ name, description: name, parameters: { type: 'object', properties: {} }, execute });
    kit.registerTool(
      make('sync_throw', () => {
        throw new Error('sync');
      }),
    );
    kit.registerTool(make('rejects', () => Promise.reject(new Error('async'))));
    kit.registerTool(make('thenable', () => ({ then: (resolve: (v: unknown) => void) => resolve('from thenable') })));
    expect((await call(kit, 'sync_throw', {})).forLLM).toBe("Tool 'sync_throw' failed: sync");
    expect((await call(kit, 'rejects', {})).forLLM).toBe("Tool 'rejects' failed: async");
    expect((await call(kit, 'thenable', {})).forLLM).toBe('from thenable');
  });
});

describe('callTools', () => {
  it('returns results in call order, including errors', async () => {
    const results = await toolkit.callTools([
      { id: '1', name: 'produce', arguments: { kind: 'observable-async' } },
      { id: '2', name: 'nope', arguments: {} },
      { id: '3', name: 'produce', arguments: '{"kind":"string"}' },
      { id: '4', name: 'produce', arguments: '{' },
    ]);
    expect(results.map((r) => [r.toolCallId, r.isError, r.error?.code])).toEqual([
      ['1', false, undefined],
      ['2', true, 'UNKNOWN_TOOL'],
      ['3', false, undefined],
      ['4', true, 'MALFORMED_ARGUMENTS'],
    ]);
  });
});
