import { AsyncCompletion, asyncResult, Tool, ToolEmitter, ToolParam, type ToolEvent, type ToolResult } from '../../src';
import { toolkitWith, useFakeTime } from './helpers';
import { agentTool, hang } from '../support/toolkit';
import { recordEvents } from '../support/events';

const SECRET = 'sk-live-7f3a9c1e55d04b2a';

/** JSON of anything, Errors included (name, message, stack, cause), for leak scans. */
function deepJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? { name: v.name, message: v.message, stack: v.stack, cause: v.cause } : v));
}

class Mailer {
  completions: AsyncCompletion[] = [];

  @Tool({ description: 'Send mail' })
  async send(@ToolParam({ name: 'to' }) to: string, @ToolParam({ name: 'apiKey' }) apiKey: string, emitter: ToolEmitter): Promise<ToolResult> {
    emitter.emit({ message: `authenticating with ${apiKey}`, data: { headers: { authorization: `Bearer ${apiKey}` } } });
    return { forLLM: `sent to ${to} using ${apiKey}`, forUser: `key ${apiKey}`, silent: false, isError: false, async: false, data: { key: apiKey, to } };
  }

  @Tool({ description: 'Send mail, failing' })
  sendFailing(@ToolParam({ name: 'apiKey' }) apiKey: string): never {
    throw new Error(`401 for key ${apiKey}`);
  }

  @Tool({ description: 'Send mail, throwing a plain object', retry: { maxAttempts: 2, initialBackoffMs: 10 } })
  async sendThrowingObject(@ToolParam({ name: 'apiKey' }) apiKey: string): Promise<never> {
    throw { status: 401, detail: `bad key ${apiKey}` };
  }

  @Tool({ description: 'Send mail, hanging', timeoutMs: 100 })
  sendHanging(@ToolParam({ name: 'apiKey' }) apiKey: string, emitter: ToolEmitter): Promise<never> {
    emitter.emit(`still waiting on ${apiKey}`);
    return hang();
  }

  @Tool({ description: 'Send mail later' })
  sendLater(@ToolParam({ name: 'apiKey' }) apiKey: string, done: AsyncCompletion): ToolResult {
    this.completions.push(done);
    void apiKey;
    return asyncResult('queued');
  }
}

describe('events never carry preset values', () => {
  beforeEach(() => useFakeTime());
  afterEach(() => jest.useRealTimers());

  it('whether the tool succeeds, reports progress, throws, throws a non-Error, retries, times out, is aborted or completes async', async () => {
    const mailer = new Mailer();
    const toolkit = toolkitWith([]);
    const presets = { apiKey: () => Promise.resolve(SECRET) };
    toolkit
      .registration()
      .tool(mailer)
      .presetParameters({ send: { apiKey: SECRET }, send_failing: presets, send_throwing_object: presets, send_hanging: presets, send_later: { apiKey: SECRET } })
      .apply();
    expect(JSON.stringify(toolkit.getToolSchemas())).not.toContain('apiKey');

    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    const caller = new AbortController();
    const batch = toolkit.callTools(
      [
        { id: 'ok', name: 'send', arguments: { to: 'ada@example.org' } },
        { id: 'throws', name: 'send_failing', arguments: {} },
        { id: 'object', name: 'send_throwing_object', arguments: {} },
        { id: 'timeout', name: 'send_hanging', arguments: {} },
        { id: 'later', name: 'send_later', arguments: {} },
        { id: 'sneaky', name: 'send', arguments: { to: 'x@example.org', apiKey: 'guess' } },
      ],
      { onAsyncComplete: (r) => completed.push(r), onProgress: (p) => completed.push({ forLLM: deepJson(p), silent: true, isError: false, async: false }) },
    );
    await jest.advanceTimersByTimeAsync(100);
    const results = await batch;
    mailer.completions[0].complete({ receipt: `sent with ${SECRET}` });
    // and one aborted call, after its progress
    const aborted = toolkit.callTool({ id: 'abort', name: 'send_hanging', arguments: {} }, { signal: caller.signal });
    await jest.advanceTimersByTimeAsync(1);
    caller.abort(new Error('stop'));
    results.push(await aborted);

    expect(results.map((r) => r.error?.code ?? 'OK')).toEqual(['OK', 'EXECUTION_FAILED', 'EXECUTION_FAILED', 'TIMEOUT', 'OK', 'INVALID_ARGUMENTS', 'ABORTED']);
    expect(results[0].forLLM).toBe('sent to ada@example.org using [REDACTED]');
    expect(results[0].data).toEqual({ key: '[REDACTED]', to: 'ada@example.org' });
    expect(results[1].forLLM).toBe("Tool 'send_failing' failed: 401 for key [REDACTED]");
    expect(completed.find((r) => r.toolCallId === 'later')?.data).toEqual({ receipt: 'sent with [REDACTED]' });

    const types = new Set(recorder.events.map((e) => e.type));
    for (const type of ['call_started', 'call_progress', 'attempt_failed', 'retry_scheduled', 'call_succeeded', 'call_failed', 'call_timed_out', 'call_aborted', 'async_completed'] as const) {
      expect(types).toContain(type);
    }
    const everything = deepJson({ events: recorder.events, results, completed });
    expect(everything).not.toContain(SECRET);
    expect(everything).toContain('[REDACTED]'); // the scan looked at the places the secret would have been
    recorder.stop();
  });
});

describe('the event union', () => {
  it('every call event has the call id, the tool name and a timestamp; durations where they apply', async () => {
    const toolkit = toolkitWith([
      agentTool('ok', async (_a, ctx) => (ctx.emit('x'), 'fine')),
      agentTool('flaky', async (_a, ctx) => {
        if (ctx.attempt === 1) throw new Error('once');
        return 'ok';
      }, { retry: { maxAttempts: 2, initialBackoffMs: 1 } }),
      agentTool('boom', () => {
        throw new Error('boom');
      }),
    ]);
    const recorder = recordEvents(toolkit);
    await toolkit.callTools(['ok', 'flaky', 'boom'].map((name) => ({ id: `id-${name}`, name, arguments: {} })));
    const callEvents = recorder.events.filter((e): e is Exclude<ToolEvent, { type: 'tools_changed' | 'groups_changed' | 'skill_changed' }> => 'callId' in e);
    expect(callEvents.length).toBeGreaterThanOrEqual(9);
    for (const event of callEvents) {
      expect(event.callId).toBe(`id-${event.tool}`);
      expect(typeof event.timestamp).toBe('number');
      if (['attempt_failed', 'call_succeeded', 'call_failed', 'call_timed_out', 'call_aborted'].includes(event.type)) {
        expect(typeof (event as { durationMs?: number }).durationMs).toBe('number');
      }
    }
    expect(describeEvent(callEvents[0])).toBe('id-ok started');
    recorder.stop();
  });
});

/** Compile-time check that the union is discriminated and exhaustive. */
function describeEvent(event: ToolEvent): string {
  switch (event.type) {
    case 'call_started':
      return `${event.callId} started`;
    case 'call_repaired':
      return `${event.callId} repaired ${event.changes.map((change) => change.kind).join(',')}`;
    case 'call_progress':
      return `${event.callId} progress ${event.progress.message ?? ''}`;
    case 'call_log':
      return `${event.callId} ${event.level}: ${String(event.data)}`;
    case 'attempt_failed':
      return `${event.callId} attempt ${event.attempt} failed: ${event.error.code}`;
    case 'retry_scheduled':
      return `${event.callId} retry in ${event.delayMs} ms`;
    case 'call_succeeded':
      return `${event.callId} ok after ${event.attempts}`;
    case 'call_failed':
      return `${event.callId} failed: ${event.error.message}`;
    case 'call_timed_out':
      return `${event.callId} timed out after ${event.timeoutMs} ms`;
    case 'call_aborted':
      return `${event.callId} aborted: ${event.reason}`;
    case 'async_completed':
      return `${event.callId} completed: ${event.result.forLLM}`;
    case 'tools_changed':
      return `tools: ${event.tools.join(',')}`;
    case 'groups_changed':
      return `groups: ${event.activeGroups.join(',')}`;
    case 'skill_changed':
      return `skill: ${event.previous ?? '-'} -> ${event.skill ?? '-'}`;
    case 'callback_failed':
      return `callback ${event.source} failed`;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
