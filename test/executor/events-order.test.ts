import { Tool, ToolParam, type CallStartedEvent, type ToolEvent } from '../../src';
import { typesOf } from './helpers';
import { agentTool, call, freshToolkit, toolCall } from '../support/toolkit';
import { eventsText, recordEvents } from '../support/events';

const SECRET = 'sk-live-0c9d8e7f6a5b4c3d';
const TERMINAL = new Set(['call_succeeded', 'call_failed', 'call_timed_out', 'call_aborted']);

class Mailer {
  @Tool({ description: 'Send mail' })
  send(@ToolParam({ name: 'to' }) to: string, @ToolParam({ name: 'apiKey' }) apiKey: string): string {
    return `sent to ${to}${apiKey ? '' : '!'}`;
  }
}

/** A toolkit with every way for a call to end: success, throw, an inactive group, a preset, a denying hook. */
function setup() {
  const toolkit = freshToolkit();
  toolkit.createToolGroup('off', 'Disabled tools', false);
  toolkit.registerTool(agentTool('echo', (args) => `echo ${String(args.text)}`, undefined, { text: { type: 'string' } }));
  toolkit.registerTool(
    agentTool('boom', () => {
      throw new Error('boom');
    }),
  );
  toolkit.registration().tool(agentTool('hidden', () => 'hidden')).group('off').apply();
  toolkit.registration().tool(new Mailer()).presetParameters({ send: { apiKey: SECRET } }).apply();
  toolkit.registerTool(agentTool('guarded', () => 'ran', undefined, { n: { type: 'number' } }));
  toolkit.use({ name: 'deny-guarded', before: (ctx) => (ctx.tool.name === 'guarded' ? { action: 'deny', reason: 'not today' } : undefined) });
  return { toolkit, recorder: recordEvents(toolkit) };
}

function startOf(events: readonly ToolEvent[], callId: string): CallStartedEvent {
  const starts = events.filter((e): e is CallStartedEvent => e.type === 'call_started' && e.callId === callId);
  expect(starts).toHaveLength(1);
  return starts[0];
}

describe('every call gets exactly one call_started, first, and one terminal event, last', () => {
  it('whether it runs, throws, is unknown, disabled, malformed, invalid, names a preset, is denied or aborted', async () => {
    const { toolkit, recorder } = setup();
    const aborted = new AbortController();
    aborted.abort(new Error('caller gave up'));
    const calls = [
      toolCall('echo', { text: 'hi' }),
      toolCall('boom'),
      toolCall('ehco', { text: 'typo' }),
      toolCall('hidden', { x: 1 }),
      toolCall('echo', '{"text": "unterminated'),
      toolCall('echo', '[1, 2]'),
      toolCall('echo', { text: 42 }),
      toolCall('send', { to: 'a@b.co', apiKey: 'model-made-up' }),
      toolCall('guarded', { n: 1 }),
    ];
    await toolkit.callTools(calls);
    const abortedCall = toolCall('echo', { text: 'late' });
    await toolkit.callTool(abortedCall, { signal: aborted.signal });
    recorder.stop();

    for (const { id } of [...calls, abortedCall]) {
      const types = typesOf(recorder.events, id);
      expect(types[0]).toBe('call_started');
      expect(types.filter((t) => t === 'call_started')).toHaveLength(1);
      expect(types.filter((t) => TERMINAL.has(t))).toHaveLength(1);
      expect(TERMINAL.has(types[types.length - 1])).toBe(true);
      const start = startOf(recorder.events, id);
      const end = recorder.events.find((e) => TERMINAL.has(e.type) && 'callId' in e && e.callId === id)!;
      expect(start.timestamp).toBeLessThanOrEqual(end.timestamp);
    }
    const [ok, , unknown, disabled, malformed, array, invalid, preset, denied] = calls.map((c) => startOf(recorder.events, c.id));
    expect(ok.arguments).toEqual({ text: 'hi' });
    expect(unknown).toMatchObject({ tool: 'ehco', arguments: { text: 'typo' } });
    expect(disabled).toMatchObject({ tool: 'hidden', arguments: { x: 1 } });
    expect(malformed).toEqual(expect.objectContaining({ arguments: {}, rawArguments: '{"text": "unterminated' }));
    expect(array).toEqual(expect.objectContaining({ arguments: {}, rawArguments: '[1, 2]' }));
    expect(invalid.arguments).toEqual({ text: 42 });
    expect(invalid.rawArguments).toBeUndefined();
    // the model cannot know a preset's value: whatever it sends for one is hidden
    expect(preset.arguments).toEqual({ to: 'a@b.co', apiKey: '[REDACTED]' });
    expect(denied.arguments).toEqual({ n: 1 });
    expect(startOf(recorder.events, abortedCall.id).arguments).toEqual({ text: 'late' });
  });

  it('bounds what a rejected call echoes: long arguments come as rawArguments, cut to 4096 characters', async () => {
    const { toolkit, recorder } = setup();
    const huge = toolCall('echo', JSON.stringify({ text: 1, pad: 'x'.repeat(100_000) }));
    const hugeMalformed = toolCall('echo', `{"text": "${'y'.repeat(100_000)}`);
    const hugeObject = toolCall('nope', { pad: 'z'.repeat(100_000) });
    await toolkit.callTools([huge, hugeMalformed, hugeObject]);
    recorder.stop();
    for (const { id } of [huge, hugeMalformed, hugeObject]) {
      const start = startOf(recorder.events, id);
      expect(start.arguments).toEqual({});
      expect(start.rawArguments!.length).toBeLessThanOrEqual(4096);
      expect(start.rawArguments!.length).toBeGreaterThan(1000);
    }
  });

  it('events$ observed from the start: a call rejected by validation shows its arguments before its error', async () => {
    const { toolkit, recorder } = setup();
    const result = await call(toolkit, 'echo', { text: ['not', 'a', 'string'] });
    recorder.stop();
    expect(result.isError).toBe(true);
    expect(recorder.events.map((e) => e.type)).toEqual(['call_started', 'call_failed']);
    expect(recorder.events[0]).toMatchObject({ tool: 'echo', arguments: { text: ['not', 'a', 'string'] } });
  });
});

describe('a preset value the model sends in rejected arguments never reaches the start event', () => {
  it('under the preset name, under another name, nested, in malformed JSON or in JSON of the wrong type', async () => {
    const { toolkit, recorder } = setup();
    const attempts = [
      { to: 'a@b.co', apiKey: SECRET },
      { to: SECRET, cc: 1 },
      { to: 5, apiKey: SECRET },
      { to: { nested: [`Bearer ${SECRET}`] } },
      `{"to": "a@b.co", "apiKey": "${SECRET}"`,
      `["${SECRET}"]`,
      `{"to": ${JSON.stringify(JSON.stringify({ key: SECRET }))}, "x": }`,
    ];
    for (const args of attempts) {
      const result = await call(toolkit, 'send', args);
      expect(result.isError).toBe(true);
    }
    recorder.stop();
    expect(recorder.of('call_started')).toHaveLength(attempts.length);
    const text = eventsText(recorder.events);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SECRET.slice(0, 8));
    expect(text).toContain('[REDACTED]');
  });
});
