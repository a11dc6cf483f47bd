import 'reflect-metadata';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { AgentTool, Toolkit } from '../../src';
import { ApprovalManager, SECRET_PATTERNS, createGuardrailHook, createRedactor } from '../../src';
import { instrumentToolkit, type ToolTracingOptions } from '../../src/otel';
import { RunLog, loggedTool } from '../support/logged-tools';
import { freshToolkit, toolCall } from '../support/toolkit';

function tracing(toolkit: Toolkit, options: Omit<ToolTracingOptions, 'tracer'> = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const subscription = instrumentToolkit(toolkit, { tracer: provider.getTracer('test'), ...options });
  return { spans: (): ReadableSpan[] => exporter.getFinishedSpans(), subscription };
}

/** What a span records, as JSON text (the SDK's span objects are circular). */
function recorded(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, status: s.status, events: s.events })));
}

function failing(name: string, error: () => unknown): AgentTool {
  return {
    name,
    description: `Fails: ${name}`,
    parameters: { type: 'object', properties: {} },
    execute: () => {
      throw error();
    },
  };
}

describe('instrumentToolkit', () => {
  it('makes one INTERNAL span per call with the GenAI attributes', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(new RunLog(), 'lookup'));
    const { spans } = tracing(toolkit);

    const call = toolCall('lookup', { n: 1 });
    await toolkit.callTool(call);

    expect(spans()).toHaveLength(1);
    const [span] = spans();
    expect(span.name).toBe('execute_tool lookup');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': call.id,
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'The lookup tool',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.ended).toBe(true);
  });

  it('records arguments and results only when asked, redacted and truncated', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(new RunLog(), 'mail', { respond: (args) => `sent to ada@example.com: ${String(args.text)}` }));
    const redact = createRedactor({ patterns: [SECRET_PATTERNS.email] }).text;
    const { spans } = tracing(toolkit, { captureArguments: true, captureResults: true, redact, maxAttributeChars: 200 });

    await toolkit.callTool(toolCall('mail', { text: `for bob@example.com ${'x'.repeat(500)}` }));

    const attributes = spans()[0].attributes;
    const args = String(attributes['gen_ai.tool.call.arguments']);
    const result = String(attributes['gen_ai.tool.call.result']);
    expect(args.startsWith('{"text":"for [REDACTED] xxx')).toBe(true);
    expect(args).toMatch(/characters truncated/);
    expect(args.length).toBeLessThanOrEqual(200);
    expect(result.startsWith('sent to [REDACTED]: for [REDACTED]')).toBe(true);
    expect(result.length).toBeLessThanOrEqual(200);
    expect(recorded(spans())).not.toContain('example.com');
  });

  it('records the session id', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(new RunLog(), 'lookup'));
    const { spans } = tracing(toolkit);
    await toolkit.session('conv-42').callTool(toolCall('lookup'));
    expect(spans()[0].attributes['session.id']).toBe('conv-42');
  });

  it('marks failures with status ERROR and error.type = the code', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(failing('explode', () => new Error('disk full')));
    const { spans } = tracing(toolkit);
    await toolkit.callTool(toolCall('explode'));
    const [span] = spans();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "Tool 'explode' failed: disk full" });
    expect(span.attributes['error.type']).toBe('EXECUTION_FAILED');
  });

  it('ends a span for calls that never start: denied, unknown tool, invalid arguments', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(new RunLog(), 'lookup'));
    toolkit.registerTool(loggedTool(new RunLog(), 'forbidden'));
    toolkit.use(createGuardrailHook({ input: [{ name: 'deny', check: (ctx) => (ctx.tool.name === 'forbidden' ? { block: 'not allowed' } : undefined) }] }));
    const { spans } = tracing(toolkit);

    await toolkit.callTools([toolCall('forbidden'), toolCall('lokup'), toolCall('lookup', { n: 'one' })]);

    const byName = Object.fromEntries(spans().map((s) => [s.name, [s.status.code, s.attributes['error.type']]]));
    expect(byName).toEqual({
      'execute_tool forbidden': [SpanStatusCode.ERROR, 'DENIED'],
      'execute_tool lokup': [SpanStatusCode.ERROR, 'UNKNOWN_TOOL'],
      'execute_tool lookup': [SpanStatusCode.ERROR, 'INVALID_ARGUMENTS'],
    });
    expect(spans().every((s) => s.ended)).toBe(true);
  });

  it('captures the arguments of calls rejected before they ran (malformed ones as their text)', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(new RunLog(), 'lookup'));
    const { spans } = tracing(toolkit, { captureArguments: true });

    await toolkit.callTools([toolCall('lookup', { n: 'one' }), toolCall('lookup', '{"n": 1'), toolCall('lokup', { q: 'x' })]);

    expect(spans().map((s) => s.attributes['gen_ai.tool.call.arguments'])).toEqual(['{"n":"one"}', '{"n": 1', '{"q":"x"}']);
    expect(spans().every((s) => s.ended && s.status.code === SpanStatusCode.ERROR)).toBe(true);
  });

  it('marks timeouts and aborts', async () => {
    const toolkit = freshToolkit();
    const hang: AgentTool = {
      name: 'hang',
      description: 'Never finishes by itself',
      parameters: { type: 'object', properties: {} },
      behaviour: { timeoutMs: 30 },
      execute: (_args, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))),
    };
    toolkit.registerTool(hang);
    toolkit.registerTool({ ...hang, name: 'wait', behaviour: {} });
    const { spans } = tracing(toolkit);

    await toolkit.callTool(toolCall('hang'));
    const controller = new AbortController();
    const waiting = toolkit.callTool(toolCall('wait'), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 5);
    await waiting;

    const [timedOut, aborted] = spans();
    expect([timedOut.attributes['error.type'], timedOut.status.code]).toEqual(['TIMEOUT', SpanStatusCode.ERROR]);
    expect(timedOut.status.message).toContain('30 ms');
    expect([aborted.attributes['error.type'], aborted.status.code]).toEqual(['ABORTED', SpanStatusCode.ERROR]);
    expect(aborted.status.message).toContain('user left');
  });

  it('records failed attempts before a retry as span events', async () => {
    const toolkit = freshToolkit();
    let attempts = 0;
    toolkit.registerTool({
      name: 'flaky',
      description: 'Fails once',
      parameters: { type: 'object', properties: {} },
      behaviour: { retry: { maxAttempts: 2, initialBackoffMs: 1 } },
      execute: () => {
        if (++attempts === 1) throw new Error('blip');
        return 'ok';
      },
    });
    const { spans } = tracing(toolkit);
    await toolkit.callTool(toolCall('flaky'));
    const [span] = spans();
    expect(spans()).toHaveLength(1);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events.map((e) => e.name)).toEqual(['toolwright.attempt_failed', 'toolwright.retry_scheduled']);
    expect(span.events[0].attributes).toEqual({ 'toolwright.attempt': 1, 'error.type': 'EXECUTION_FAILED' });
  });

  it('records log messages as span events: level and logger, the message only with captureLogs (redacted, truncated)', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool({
      name: 'chatty',
      description: 'Logs',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) => {
        ctx.log?.('warning', { to: 'ada@example.com', n: 1 }, 'mailer');
        ctx.log?.('debug', 'x'.repeat(50));
        return 'ok';
      },
    });
    const quiet = tracing(toolkit);
    const verbose = tracing(toolkit, { captureLogs: true, redact: createRedactor({ patterns: [SECRET_PATTERNS.email] }).text, maxAttributeChars: 20 });
    await toolkit.callTool(toolCall('chatty'));
    const [plain] = quiet.spans();
    expect(plain.events.map((e) => e.attributes)).toEqual([
      { 'toolwright.log.level': 'warning', 'toolwright.attempt': 1, 'toolwright.log.logger': 'mailer' },
      { 'toolwright.log.level': 'debug', 'toolwright.attempt': 1 },
    ]);
    const [captured] = verbose.spans();
    expect(captured.events.map((e) => e.name)).toEqual(['toolwright.log', 'toolwright.log']);
    const data = captured.events.map((e) => String(e.attributes?.['toolwright.log.data']));
    expect(data[0]).not.toContain('ada@example.com');
    expect(data[1].length).toBeLessThanOrEqual(20);
    quiet.subscription.unsubscribe();
    verbose.subscription.unsubscribe();
  });

  it('keeps concurrent calls with the same call id in different sessions apart', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool({
      name: 'slow',
      description: 'Slow',
      parameters: { type: 'object', properties: { ms: { type: 'integer' } } },
      execute: (args) => new Promise((resolve) => setTimeout(() => resolve(`slept ${String(args.ms)}`), Number(args.ms))),
    });
    const { spans } = tracing(toolkit, { captureResults: true });
    await Promise.all([
      toolkit.session('a').callTool({ id: 'same', name: 'slow', arguments: { ms: 30 } }),
      toolkit.session('b').callTool({ id: 'same', name: 'slow', arguments: { ms: 1 } }),
    ]);
    const bySession = Object.fromEntries(spans().map((s) => [s.attributes['session.id'], s.attributes['gen_ai.tool.call.result']]));
    expect(bySession).toEqual({ a: 'slept 30', b: 'slept 1' });
  });

  it('traces a held approval and, later, the approved run', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(new RunLog(), 'wire', { risk: 'high' }));
    const approvals = new ApprovalManager({ minRisk: 'high' });
    toolkit.use(approvals.hook);
    const { spans } = tracing(toolkit, { captureResults: true });
    const call = toolCall('wire', { n: 5 });
    await toolkit.callTool(call);
    await approvals.approve(approvals.pending()[0].id, { toolkit });
    const [held, ran] = spans();
    expect([held.attributes['gen_ai.tool.call.id'], ran.attributes['gen_ai.tool.call.id']]).toEqual([call.id, call.id]);
    expect(held.attributes['gen_ai.tool.call.result']).toMatch(/^Tool 'wire' needs a person's approval/);
    expect(ran.attributes['gen_ai.tool.call.result']).toBe('wire done with {"n":5}');
  });

  it('never records a preset value, wherever the tool leaks it', async () => {
    const secret = 'preset-secret-7f3a9c';
    const toolkit = freshToolkit();
    const make = (name: string, behave: (key: string) => unknown): AgentTool => ({
      name,
      description: name,
      parameters: { type: 'object', properties: { apiKey: { type: 'string' }, q: { type: 'string' } }, required: ['apiKey'] },
      behaviour: { retry: { maxAttempts: 2, initialBackoffMs: 1 } },
      execute: (args, ctx) => {
        ctx.emit(`using ${String(args.apiKey)}`);
        return behave(String(args.apiKey));
      },
    });
    toolkit.registration()
      .tool(make('echo_key', (key) => `the key is ${key}`))
      .tool(make('throw_key', (key) => Promise.reject(new Error(`bad key ${key}`))))
      .tool(make('data_key', (key) => ({ key })))
      .presetParameters({ echo_key: { apiKey: secret }, throw_key: { apiKey: () => secret }, data_key: { apiKey: secret } })
      .apply();
    const { spans } = tracing(toolkit, { captureArguments: true, captureResults: true });

    await toolkit.callTools([
      toolCall('echo_key', { q: 'a' }),
      toolCall('throw_key', { q: 'b' }),
      toolCall('data_key', {}),
      toolCall('echo_key', { apiKey: 'model-sent', q: 'c' }),
    ]);

    expect(spans()).toHaveLength(4);
    const text = recorded(spans());
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain(secret);
  });

  it('unsubscribe() ends the open spans and stops tracing', async () => {
    const toolkit = freshToolkit();
    let release!: () => void;
    toolkit.registerTool({
      name: 'gate',
      description: 'Waits for release',
      parameters: { type: 'object', properties: {} },
      execute: () => new Promise<string>((resolve) => (release = () => resolve('released'))),
    });
    const { spans, subscription } = tracing(toolkit);
    const running = toolkit.callTool(toolCall('gate'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(spans()).toHaveLength(0);

    subscription.unsubscribe();
    expect(spans()).toHaveLength(1);
    release();
    expect((await running).forLLM).toBe('released');
    const after = toolkit.callTool(toolCall('gate'));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await after;
    expect(spans()).toHaveLength(1);
  });

  it('records a repair as span events (values only when arguments are captured, redacted)', async () => {
    const toolkit = freshToolkit({ repair: 'safe' });
    toolkit.registerTool(loggedTool(new RunLog(), 'lookup'));
    const quiet = tracing(toolkit);
    await toolkit.callTool(toolCall('lookup', '{"n": "2",}'));
    const [span] = quiet.spans();
    expect(span.attributes['toolwright.repaired']).toBe(true);
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['toolwright.call_repaired', { 'toolwright.repair.kind': 'json_syntax', 'toolwright.repair.path': '' }],
      ['toolwright.call_repaired', { 'toolwright.repair.kind': 'number_from_string', 'toolwright.repair.path': '/n' }],
    ]);
    quiet.subscription.unsubscribe();

    const redact = createRedactor({ patterns: [SECRET_PATTERNS.email] }).text;
    const loud = tracing(toolkit, { captureArguments: true, redact });
    await toolkit.callTool(toolCall('lookup', "{'text': 'ada@example.com', 'n': '7'}"));
    const text = recorded(loud.spans());
    expect(text).toContain('"toolwright.repair.before":"7"');
    expect(text).toContain('"toolwright.repair.after":"7"');
    expect(text).not.toContain('ada@example.com');
  });
});
