import {
  AsyncCompletion,
  Tool,
  ToolParam,
  asyncResult,
  toolResult,
  type AsyncCallback,
  type AsyncTool,
  type ToolResult,
} from '../../src';
import { deferred, flushPromises, internals, toolkitWith, typesOf } from './helpers';
import { agentTool } from '../support/toolkit';
import { recordEvents } from '../support/events';

/** An AsyncTool (Go design): answers at once, completes later through the registration callback. */
function renderTool(options: { completeBeforeAnswer?: boolean } = {}) {
  const jobs = new Map<string, string>();
  let callback: AsyncCallback | undefined;
  const tool: AsyncTool = {
    name: 'render',
    description: 'Render a video',
    parameters: { type: 'object', properties: { video: { type: 'string' } }, required: ['video'] },
    setCallback(cb) {
      callback = cb;
    },
    execute(args, ctx) {
      jobs.set(ctx.callId, String(args.video));
      if (options.completeBeforeAnswer) callback!({ ...toolResult(`${String(args.video)} rendered instantly`), toolCallId: ctx.callId });
      return asyncResult(`Rendering ${String(args.video)}; the result follows.`);
    },
  };
  const finish = (callId: string) => callback!({ ...toolResult(`${jobs.get(callId)} rendered`), toolCallId: callId });
  return { tool, finish, callback: () => callback! };
}

describe('AsyncTool (Go design)', () => {
  it('answers async at once; the completion surfaces as async_completed with the call id and reaches onAsyncComplete', async () => {
    const { tool, finish } = renderTool();
    const toolkit = toolkitWith([tool]);
    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    const onAsyncComplete = (r: ToolResult) => completed.push(r);
    const [first, second] = await toolkit.callTools(
      [
        { id: 'job-1', name: 'render', arguments: { video: 'intro.mp4' } },
        { id: 'job-2', name: 'render', arguments: { video: 'outro.mp4' } },
      ],
      { onAsyncComplete },
    );
    expect(first).toMatchObject({ async: true, isError: false, toolCallId: 'job-1', forLLM: 'Rendering intro.mp4; the result follows.' });
    expect(second.async).toBe(true);
    expect(completed).toEqual([]);

    finish('job-2');
    finish('job-1');
    expect(completed).toEqual([
      { forLLM: 'outro.mp4 rendered', silent: false, isError: false, async: false, toolCallId: 'job-2', name: 'render' },
      { forLLM: 'intro.mp4 rendered', silent: false, isError: false, async: false, toolCallId: 'job-1', name: 'render' },
    ]);
    const asyncEvents = recorder.of('async_completed');
    expect(asyncEvents.map((e) => [e.callId, e.tool, e.result.forLLM])).toEqual([
      ['job-2', 'render', 'outro.mp4 rendered'],
      ['job-1', 'render', 'intro.mp4 rendered'],
    ]);
    expect(typesOf(recorder.events, 'job-1')).toEqual(['call_started', 'call_succeeded', 'async_completed']);
    expect(internals(toolkit).asyncListeners.size).toBe(0); // nothing waits any more
    recorder.stop();
  });

  it('a completion that arrives before the call answered is delivered right after the answer', async () => {
    const { tool } = renderTool({ completeBeforeAnswer: true });
    const toolkit = toolkitWith([tool]);
    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    const result = await toolkit.callTool({ id: 'fast', name: 'render', arguments: { video: 'a.mp4' } }, { onAsyncComplete: (r) => completed.push(r) });
    expect(result.async).toBe(true);
    expect(completed.map((r) => [r.toolCallId, r.forLLM])).toEqual([['fast', 'a.mp4 rendered instantly']]);
    expect(typesOf(recorder.events)).toEqual(['call_started', 'call_succeeded', 'async_completed']);
    recorder.stop();
  });

  it('a completion for a call the toolkit no longer waits for (a repeat, or one from a previous process) reaches events$ only', async () => {
    const { tool, callback, finish } = renderTool();
    const toolkit = toolkitWith([tool]);
    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    await toolkit.callTool({ id: 'j', name: 'render', arguments: { video: 'v' } }, { onAsyncComplete: (r) => completed.push(r) });
    finish('j');
    finish('j');
    callback()({ ...toolResult('from a previous process'), toolCallId: 'old-call' });
    expect(completed).toHaveLength(1);
    expect(recorder.of('async_completed').map((e) => e.callId)).toEqual(['j', 'j', 'old-call']);
    recorder.stop();
  });

  it('tags the completion with the session of the call', async () => {
    const { tool, finish } = renderTool();
    const toolkit = toolkitWith([tool]);
    const recorder = recordEvents(toolkit);
    await toolkit.session('s-1').callTool({ id: 'j', name: 'render', arguments: { video: 'v' } });
    finish('j');
    expect(recorder.of('async_completed')[0]).toMatchObject({ callId: 'j', sessionId: 's-1' });
    recorder.stop();
  });
});

class Exports {
  readonly jobs = new Map<string, { done: AsyncCompletion; table: string }>();

  /** Starts an export and completes it through the injected handle. */
  @Tool({ description: 'Export a table; the link follows when ready' })
  exportTable(@ToolParam({ name: 'table' }) table: string, done: AsyncCompletion): ToolResult {
    this.jobs.set(done.callId, { done, table });
    return asyncResult(`Export of ${table} started.`);
  }

  @Tool({ description: 'Counts rows (answers at once)' })
  countRows(@ToolParam({ name: 'table' }) table: string, done: AsyncCompletion): string {
    this.jobs.set(done.callId, { done, table });
    return `${table}: 42 rows`;
  }
}

describe('AsyncCompletion (decorated tools)', () => {
  it('is injected by type; complete() surfaces as async_completed and reaches onAsyncComplete, once', async () => {
    const exports = new Exports();
    const toolkit = toolkitWith([]);
    toolkit.registerTool(exports);
    expect(toolkit.getToolSchemas().find((s) => s.name === 'export_table')!.parameters.properties).toEqual({ table: { type: 'string' } });
    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    const started = await toolkit.callTool({ id: 'e1', name: 'export_table', arguments: { table: 'orders' } }, { onAsyncComplete: (r) => completed.push(r) });
    expect(started).toMatchObject({ async: true, forLLM: 'Export of orders started.', toolCallId: 'e1' });

    const { done } = exports.jobs.get('e1')!;
    expect([done.callId, done.toolName, done.settled]).toEqual(['e1', 'export_table', false]);
    expect(done.complete({ url: 'https://files.example/orders.csv' })).toBe(true);
    expect(done.settled).toBe(true);
    expect(done.complete('again')).toBe(false);
    expect(done.fail(new Error('late'))).toBe(false);

    expect(completed).toEqual([
      {
        forLLM: '{"url":"https://files.example/orders.csv"}',
        data: { url: 'https://files.example/orders.csv' },
        silent: false,
        isError: false,
        async: false,
        toolCallId: 'e1',
        name: 'export_table',
      },
    ]);
    expect(typesOf(recorder.events)).toEqual(['call_started', 'call_succeeded', 'async_completed']);
    expect(recorder.of('async_completed')[0]).toMatchObject({ callId: 'e1', tool: 'export_table', result: completed[0] });
    recorder.stop();
  });

  it('fail(error) completes with an error result', async () => {
    const exports = new Exports();
    const toolkit = toolkitWith([]);
    toolkit.registerTool(exports);
    const completed: ToolResult[] = [];
    await toolkit.callTool({ id: 'e2', name: 'export_table', arguments: { table: 'users' } }, { onAsyncComplete: (r) => completed.push(r) });
    exports.jobs.get('e2')!.done.fail(new Error('disk full'));
    expect(completed).toEqual([
      expect.objectContaining({
        isError: true,
        async: false,
        toolCallId: 'e2',
        forLLM: "Tool 'export_table' failed in the background: disk full",
        error: { code: 'EXECUTION_FAILED', message: "Tool 'export_table' failed in the background: disk full" },
      }),
    ]);
  });

  it('does nothing when the call answered with a normal result', async () => {
    const exports = new Exports();
    const toolkit = toolkitWith([]);
    toolkit.registerTool(exports);
    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    const result = await toolkit.callTool({ id: 'c', name: 'count_rows', arguments: { table: 't' } }, { onAsyncComplete: (r) => completed.push(r) });
    expect(result).toMatchObject({ async: false, forLLM: 't: 42 rows' });
    expect(exports.jobs.get('c')!.done.complete('late')).toBe(false);
    expect(completed).toEqual([]);
    expect(recorder.of('async_completed')).toEqual([]);
    recorder.stop();
  });

  it('AgentTool objects take the handle from ctx.context; completions arriving early are held until the answer', async () => {
    const work = deferred<void>();
    const toolkit = toolkitWith([
      agentTool('index_site', (args, ctx) => {
        const done = ctx.context.get(AsyncCompletion)!;
        void work.promise.then(() => done.complete(`indexed ${String(args.site)}`));
        done.complete('finished before the answer');
        return Promise.resolve(asyncResult('indexing'));
      }, undefined, { site: { type: 'string' } }),
    ]);
    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    const result = await toolkit.callTool({ id: 'ix', name: 'index_site', arguments: { site: 'example.org' } }, { onAsyncComplete: (r) => completed.push(r) });
    expect(result.async).toBe(true);
    expect(completed.map((r) => r.forLLM)).toEqual(['finished before the answer']);
    work.resolve();
    await flushPromises();
    expect(completed).toHaveLength(1); // only the first completion counts
    expect(typesOf(recorder.events)).toEqual(['call_started', 'call_succeeded', 'async_completed']);
    recorder.stop();
  });
});
