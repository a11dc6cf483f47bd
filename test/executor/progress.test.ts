import { EMPTY, Observable, interval, map, of, take, throwError } from 'rxjs';
import { Tool, ToolEmitter, ToolParam, type CallProgress } from '../../src';
import { deferred, flushPromises, toolkitWith, typesOf, useFakeTime } from './helpers';
import { agentTool } from '../support/toolkit';
import { recordEvents } from '../support/events';

class Importer {
  readonly gates = new Map<string, () => void>();

  @Tool({ description: 'Import rows' })
  async importRows(@ToolParam({ name: 'source' }) source: string, emitter: ToolEmitter): Promise<string> {
    emitter.emit(`${source}: downloading`);
    emitter.emit({ progress: 1, total: 3 });
    const gate = deferred<void>();
    this.gates.set(source, gate.resolve);
    await gate.promise;
    emitter.emit({ progress: 3, total: 3, message: `${source}: done` });
    return `imported ${source}`;
  }

  @Tool({ description: 'Stream steps' })
  async *steps(@ToolParam({ name: 'n', integer: true }) n: number): AsyncGenerator<string | number, string> {
    for (let i = 1; i <= n; i++) {
      await Promise.resolve();
      yield i === n ? `step ${i}` : i;
    }
    return `${n} steps`;
  }
}

describe('ToolEmitter progress', () => {
  it('reaches events$ and onProgress in order, tagged with the call id, for concurrent calls', async () => {
    const importer = new Importer();
    const toolkit = toolkitWith([]);
    toolkit.registerTool(importer);
    const recorder = recordEvents(toolkit);
    const seen: CallProgress[] = [];
    const batch = toolkit.callTools(
      [
        { id: 'a', name: 'import_rows', arguments: { source: 'A' } },
        { id: 'b', name: 'import_rows', arguments: { source: 'B' } },
      ],
      { onProgress: (p) => seen.push(p) },
    );
    await flushPromises();
    importer.gates.get('B')!();
    await flushPromises();
    importer.gates.get('A')!();
    const results = await batch;
    expect(results.map((r) => r.forLLM)).toEqual(['imported A', 'imported B']);
    expect(seen).toEqual([
      { message: 'A: downloading', callId: 'a', tool: 'import_rows' },
      { progress: 1, total: 3, callId: 'a', tool: 'import_rows' },
      { message: 'B: downloading', callId: 'b', tool: 'import_rows' },
      { progress: 1, total: 3, callId: 'b', tool: 'import_rows' },
      { progress: 3, total: 3, message: 'B: done', callId: 'b', tool: 'import_rows' },
      { progress: 3, total: 3, message: 'A: done', callId: 'a', tool: 'import_rows' },
    ]);
    const progressEvents = recorder.of('call_progress');
    expect(progressEvents.map((e) => [e.callId, e.tool, e.attempt, e.progress])).toEqual(seen.map(({ callId, tool, ...p }) => [callId, tool, 1, p]));
    expect(typesOf(recorder.events, 'a')).toEqual(['call_started', 'call_progress', 'call_progress', 'call_progress', 'call_succeeded']);
    recorder.stop();
  });

  it('AgentTool objects report through ctx.emit (safe to destructure)', async () => {
    const toolkit = toolkitWith([
      agentTool('plain', async (_args, { emit }) => {
        emit('half way');
        await Promise.resolve();
        emit({ progress: 100 });
        return 'done';
      }),
    ]);
    const seen: CallProgress[] = [];
    await toolkit.callTool({ id: 'p', name: 'plain', arguments: {} }, { onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { message: 'half way', callId: 'p', tool: 'plain' },
      { progress: 100, callId: 'p', tool: 'plain' },
    ]);
  });
});

describe('async generator tools', () => {
  it('each yield is progress (string → message, number → progress), the return value is the result', async () => {
    const toolkit = toolkitWith([]);
    toolkit.registerTool(new Importer());
    const recorder = recordEvents(toolkit);
    const seen: CallProgress[] = [];
    const result = await toolkit.callTool({ id: 'g', name: 'steps', arguments: '{"n":3}' }, { onProgress: (p) => seen.push(p) });
    expect(result).toMatchObject({ isError: false, forLLM: '3 steps', toolCallId: 'g' });
    expect(seen).toEqual([
      { progress: 1, callId: 'g', tool: 'steps' },
      { progress: 2, callId: 'g', tool: 'steps' },
      { message: 'step 3', callId: 'g', tool: 'steps' },
    ]);
    expect(typesOf(recorder.events)).toEqual(['call_started', 'call_progress', 'call_progress', 'call_progress', 'call_succeeded']);
    recorder.stop();
  });

  it('object yields are progress as they are; a throwing generator is a failed call', async () => {
    const toolkit = toolkitWith([
      agentTool('objects', async function* () {
        yield { progress: 1, total: 2, data: { rows: 10 } };
        return { rows: 20 };
      }),
      agentTool('broken', async function* () {
        yield 'starting';
        throw new Error('disk full');
      }),
    ]);
    const seen: CallProgress[] = [];
    const [objects, broken] = await toolkit.callTools(
      [
        { id: 'o', name: 'objects', arguments: {} },
        { id: 'b', name: 'broken', arguments: {} },
      ],
      { onProgress: (p) => seen.push(p) },
    );
    expect(objects).toMatchObject({ forLLM: '{"rows":20}', data: { rows: 20 } });
    expect(broken).toMatchObject({ isError: true, forLLM: "Tool 'broken' failed: disk full" });
    expect(seen.map((p) => p.callId)).toEqual(['o', 'b']);
    expect(seen[0]).toMatchObject({ progress: 1, total: 2, data: { rows: 10 } });
  });
});

describe('Observable tools', () => {
  beforeEach(() => useFakeTime());
  afterEach(() => jest.useRealTimers());

  it('give their last value; an empty Observable gives the empty result text; an error is a failed call', async () => {
    const toolkit = toolkitWith([
      agentTool('sync_values', () => of('first', 'second', 'last')),
      agentTool('timed', () => interval(100).pipe(take(3), map((i) => ({ tick: i })))),
      agentTool('empty', () => EMPTY),
      agentTool('failing', () => throwError(() => new Error('stream broke'))),
      agentTool('promised', async () => of(1, 2, 42)),
    ]);
    const pending = toolkit.callTools(['sync_values', 'timed', 'empty', 'failing', 'promised'].map((name) => ({ id: name, name, arguments: {} })));
    await jest.advanceTimersByTimeAsync(300);
    const results = await pending;
    expect(results.map((r) => r.forLLM)).toEqual(['last', '{"tick":2}', 'Done.', "Tool 'failing' failed: stream broke", '42']);
    expect(results[1].data).toEqual({ tick: 2 });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a decorated method returning an Observable works the same way', async () => {
    class Prices {
      @Tool({ description: 'Latest price' })
      latest(@ToolParam({ name: 'symbol' }) symbol: string): Observable<string> {
        return new Observable<string>((s) => {
          s.next(`${symbol} 1`);
          const t = setTimeout(() => {
            s.next(`${symbol} 2`);
            s.complete();
          }, 50);
          return () => clearTimeout(t);
        });
      }
    }
    const toolkit = toolkitWith([]);
    toolkit.registerTool(new Prices());
    const pending = toolkit.callTool({ id: 'p', name: 'latest', arguments: { symbol: 'ACME' } });
    await jest.advanceTimersByTimeAsync(50);
    await expect(pending).resolves.toMatchObject({ forLLM: 'ACME 2' });
  });
});
