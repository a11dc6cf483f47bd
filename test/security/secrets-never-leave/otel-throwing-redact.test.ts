import 'reflect-metadata';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Container } from 'inversify';
import { Toolkit, type ToolEvent } from '../../../src';
import { instrumentToolkit } from '../../../src/otel';

/** Regression: instrumentToolkit with a throwing `redact` crashed the process; now it fails closed and is reported. */
describe('security: a throwing OTel redactor fails closed', () => {
  it('spans get [REDACTED] (never the unredacted text), they still end, and the failure is a callback_failed event', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool({
      name: 'echo',
      description: 'Echo',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      execute: (args) => `you said ${String(args.text)}`,
    });
    const events: ToolEvent[] = [];
    toolkit.events$.subscribe((e) => events.push(e));
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    instrumentToolkit(toolkit, {
      tracer: provider.getTracer('test'),
      captureArguments: true,
      captureResults: true,
      redact: () => {
        throw new Error('redactor broke');
      },
    });
    const result = await toolkit.callTool({ id: 'o1', name: 'echo', arguments: { text: 'card 4111 1111 1111 1111' } });
    expect(result.forLLM).toBe('you said card 4111 1111 1111 1111');
    const [span] = exporter.getFinishedSpans();
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('[REDACTED]');
    expect(span.attributes['gen_ai.tool.call.result']).toBe('[REDACTED]');
    expect(JSON.stringify(span.attributes)).not.toContain('4111');
    const failures = events.filter((e) => e.type === 'callback_failed');
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(String((failures[0] as { error: unknown }).error)).toContain('redactor broke');
  });
});
