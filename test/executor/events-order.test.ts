import { ApprovalManager, defineSkill, runToolLoop, ScriptedProvider, Tool, ToolParam, type CallStartedEvent, type SkillContext, type ToolEvent } from '../../src';
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

/**
 * Calls refused before they would start — outside the call run's own checks — get the same two
 * events, on the same `events$`: the closed or expired session, a skill run over its cap or
 * already ended, the tool loop's budget and repeats, an approval resumed after its session closed.
 */
describe('a call refused before it starts still gets one call_started and one terminal event', () => {
  /** Each call id's event types, and its start event. */
  function expectOneStartOneEnd(events: readonly ToolEvent[], ids: readonly string[], code: string): void {
    for (const id of ids) {
      const types = typesOf(events, id);
      expect(types).toEqual(['call_started', 'call_failed']);
      const end = events.find((e) => e.type === 'call_failed' && e.callId === id);
      expect(end).toMatchObject({ type: 'call_failed', error: { code } });
    }
  }

  it('closed and expired sessions: SESSION_CLOSED with the sent arguments (a guessed preset redacted) and the session id', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const { toolkit, recorder } = setup();
      const closed = toolkit.session('s-closed');
      closed.close();
      const expiring = toolkit.session('s-expiring', { ttlMs: 1_000 });
      jest.setSystemTime(5_000);
      const guess = toolCall('send', { to: 'a@b.co', apiKey: 'model-guessed-key' });
      const calls = [guess, toolCall('nope', { x: 1 }), toolCall('echo', '{"text": '), toolCall('invoke_skill', { name: 'x' })];
      const results = [...(await closed.callTools(calls)), await expiring.callTool(toolCall('echo', { text: 'late' }))];
      recorder.stop();
      expect(results.map((r) => r.error?.code)).toEqual(Array(5).fill('SESSION_CLOSED'));
      const ids = results.map((r) => r.toolCallId!);
      expectOneStartOneEnd(recorder.events, ids, 'SESSION_CLOSED');
      expect(startOf(recorder.events, guess.id)).toMatchObject({ tool: 'send', sessionId: 's-closed', arguments: { to: 'a@b.co', apiKey: '[REDACTED]' } });
      expect(startOf(recorder.events, ids[2]).rawArguments).toBe('{"text": ');
      expect(startOf(recorder.events, ids[4])).toMatchObject({ sessionId: 's-expiring', arguments: { text: 'late' } });
      expect(eventsText(recorder.events)).not.toContain('model-guessed-key');
    } finally {
      jest.useRealTimers();
    }
  });

  it('a skill run over its cap, and its context after the run ended: each refused call has its own id and events', async () => {
    const { toolkit, recorder } = setup();
    let kept: SkillContext | undefined;
    toolkit.registerSkill(
      defineSkill({
        name: 'chatty',
        description: 'Calls too often',
        tools: ['echo', 'send'],
        maxToolCalls: 1,
        run: async (_p, ctx) => {
          kept = ctx;
          await ctx.callTool('echo', { text: 'one' });
          await ctx.callTools([{ name: 'send', arguments: { to: 'x@y.z', apiKey: SECRET } }, { name: 'echo', arguments: { text: 'three' } }]);
          return 'done';
        },
      }),
    );
    const result = await toolkit.callTool({ id: 'r', name: 'invoke_skill', arguments: { name: 'chatty' } });
    const late = await kept!.callTool('echo', { text: 'after' });
    recorder.stop();
    expect(result.error?.code).toBe('SKILL_LIMIT_EXCEEDED');
    expect(typesOf(recorder.events, 'r.1')).toEqual(['call_started', 'call_succeeded']);
    expectOneStartOneEnd(recorder.events, ['r.2', 'r.3'], 'SKILL_LIMIT_EXCEEDED');
    expect(startOf(recorder.events, 'r.2').arguments).toEqual({ to: 'x@y.z', apiKey: '[REDACTED]' });
    expect(late.toolCallId).toBe('r.4');
    expectOneStartOneEnd(recorder.events, ['r.4'], 'ABORTED');
    expect(eventsText(recorder.events)).not.toContain(SECRET);
  });

  it('runToolLoop: calls over the budget and repeated calls are refused with their events, in the loop session', async () => {
    const { toolkit, recorder } = setup();
    const session = toolkit.session('loop-1');
    const same = { name: 'echo', arguments: { text: 'again' } };
    const provider = new ScriptedProvider([
      ScriptedProvider.toolCalls([same, same, { name: 'echo', arguments: { text: 'other' } }]),
      ScriptedProvider.toolCalls([{ name: 'send', arguments: { to: 'a@b.co', apiKey: SECRET } }]),
    ]);
    const refused: string[] = [];
    await runToolLoop(
      { provider, model: 'm', toolkit: session, maxRepeatedCalls: 1, maxToolCalls: 2, onToolResult: (r) => r.isError && refused.push(r.toolCallId!) },
      [{ role: 'user', content: 'go' }],
    );
    recorder.stop();
    expect(refused).toHaveLength(2);
    const [repeated, overBudget] = refused;
    expectOneStartOneEnd(recorder.events, [repeated], 'REPEATED_CALL');
    expectOneStartOneEnd(recorder.events, [overBudget], 'TOOL_BUDGET_EXCEEDED');
    expect(startOf(recorder.events, repeated)).toMatchObject({ sessionId: 'loop-1', arguments: { text: 'again' } });
    expect(startOf(recorder.events, overBudget).arguments).toEqual({ to: 'a@b.co', apiKey: '[REDACTED]' });
    expect(eventsText(recorder.events)).not.toContain(SECRET);
  });

  it('an approval resumed after its session expired: the resumed call gets its own start and SESSION_CLOSED end', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const { toolkit, recorder } = setup();
      const approvals = new ApprovalManager({ tools: ['echo'] });
      toolkit.use(approvals.hook);
      const session = toolkit.session('s-approval', { ttlMs: 1_000 });
      const held = toolCall('echo', { text: 'needs a yes' });
      await session.callTool(held);
      jest.setSystemTime(5_000);
      const result = await approvals.approve(approvals.pending()[0].id);
      recorder.stop();
      expect(result.error?.code).toBe('SESSION_CLOSED');
      // the held call (answered "pending"), then the resumed one
      expect(typesOf(recorder.events, held.id)).toEqual(['call_started', 'call_succeeded', 'call_started', 'call_failed']);
    } finally {
      jest.useRealTimers();
    }
  });
});
