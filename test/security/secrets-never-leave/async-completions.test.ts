import 'reflect-metadata';
import { Container } from 'inversify';
import { AsyncCompletion, asyncResult, Tool, Toolkit, ToolParam, type AsyncCallback, type AsyncCompletedEvent, type AsyncTool } from '../../../src';
import { recordEvents } from '../../support/events';
import { findLeaks } from '../../support/leaks';

const SECRET = 'render-key-8f2e4d6c';

function renderTool(): { tool: AsyncTool; callback: () => AsyncCallback } {
  let callback: AsyncCallback | undefined;
  const tool: AsyncTool = {
    name: 'render',
    description: 'Render a video',
    parameters: { type: 'object', properties: { apiKey: { type: 'string' } }, required: ['apiKey'] },
    setCallback: (cb) => (callback = cb),
    execute: () => asyncResult('rendering'),
  };
  return { tool, callback: () => callback! };
}

const completion = (toolCallId: string) => ({ forLLM: `done with ${SECRET}`, silent: false, isError: false, async: false, data: { key: SECRET }, toolCallId });

describe('stray AsyncTool completions (a repeat, a wrong call id) never carry the tool’s presets out', () => {
  it.each([
    ['a fixed preset', SECRET],
    ['a preset resolved at call time', () => SECRET],
  ])('with %s: redacted with what the tool is known to use', async (_label, preset) => {
    const { tool, callback } = renderTool();
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(tool, { presets: { render: { apiKey: preset } } });
    const recorder = recordEvents(toolkit);
    const completed: unknown[] = [];
    await toolkit.callTool({ id: 'job-1', name: 'render', arguments: {} }, { onAsyncComplete: (r) => completed.push(r) });
    callback()(completion('job-1'));
    callback()(completion('job-1')); // a repeat
    callback()(completion('job-2')); // nobody waits for it
    callback()(completion(`job-${SECRET}`)); // the id itself carries the secret
    recorder.stop();
    const events = recorder.events.filter((e): e is AsyncCompletedEvent => e.type === 'async_completed');
    expect(events.map((e) => e.result.forLLM)).toEqual(['done with [REDACTED]', 'done with [REDACTED]', 'done with [REDACTED]', 'done with [REDACTED]']);
    expect(events[3].callId).toBe('job-[REDACTED]');
    expect(completed).toHaveLength(1);
    expect(findLeaks({ events: recorder.events, completed }, [SECRET])).toEqual([]);
  });

  it('a completion for a tool whose call-time presets never resolved in this process is withheld, saying so', () => {
    const { tool, callback } = renderTool();
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(tool, { presets: { render: { apiKey: () => SECRET } } });
    const recorder = recordEvents(toolkit);
    callback()(completion('from-before-the-restart'));
    recorder.stop();
    const [event] = recorder.events as AsyncCompletedEvent[];
    expect(event.type).toBe('async_completed');
    expect(event.result.isError).toBe(true);
    expect(event.result.error?.code).toBe('RESULT_WITHHELD');
    expect(event.result.forLLM).toMatch(/^A background completion of tool 'render' for call 'from-before-the-restart' was withheld/);
    expect(findLeaks(recorder.events, [SECRET])).toEqual([]);
  });
});

class Exports {
  @Tool({ description: 'Export a table in the background' })
  exportTable(@ToolParam({ name: 'apiKey' }) apiKey: string, done: AsyncCompletion): unknown {
    setImmediate(() => done.fail({ pad: 'x'.repeat(470), apiKey }));
    return asyncResult('exporting');
  }
}

describe('AsyncCompletion.fail with a non-Error object', () => {
  it('redacts before describeThrown cuts at 500 characters', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registration().tool(new Exports()).presetParameters({ export_table: { apiKey: SECRET } }).apply();
    const recorder = recordEvents(toolkit);
    const completed: unknown[] = [];
    await toolkit.callTool({ id: 'e1', name: 'export_table', arguments: {} }, { onAsyncComplete: (r) => completed.push(r) });
    await new Promise((resolve) => setImmediate(resolve));
    recorder.stop();
    expect(completed).toHaveLength(1);
    expect(findLeaks({ completed, events: recorder.events }, [SECRET])).toEqual([]);
  });
});
