import { ToolkitError, type Toolkit } from '../../src';
import { addRoute, workerRunner } from '../../src/toolkit/remote-routes';
import { extensionOf } from '../../src/toolkit/toolkit';
import type { RemoteCall } from '../../src/executor/remote/remote-types';
import { agentTool, freshToolkit } from '../support/toolkit';

/** The one seam a subpath package (BullMQ, Nest) reaches a toolkit through, with a real toolkit behind it. */
describe('extensionOf', () => {
  it('shows the registered tools and groups, and runs a worker call through the same path as any call', async () => {
    const toolkit = freshToolkit();
    toolkit.createToolGroup('maths', 'Maths');
    toolkit.registerTool(agentTool('add', (args) => Number(args.a) + Number(args.b)), { group: 'maths' });
    const extension = extensionOf(toolkit);
    expect([...extension.registry.entries()].map((entry) => entry.name)).toEqual(['add']);
    expect(extension.groups.has('maths')).toBe(true);
    expect(extension.remote).toBeUndefined();
    const events: string[] = [];
    toolkit.events$.subscribe((event) => events.push(event.type));
    const handoff = { attempt: 1, maxAttempts: 1, deadlineAt: undefined, retryDelayMs: undefined };
    const result = await workerRunner(toolkit, () => true, 'q')({ tool: 'add', callId: 'w1', args: { a: 2, b: 3 }, handoff }, {});
    expect(result).toMatchObject({ isError: false, forLLM: '5', toolCallId: 'w1' });
    expect(events).toEqual(['call_started', 'call_succeeded']);
  });

  it('routes calls set through it', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(agentTool('far', () => 'ran here'));
    let routed: RemoteCall | undefined;
    addRoute(toolkit, (entry) => entry.name === 'far', async (call) => {
      routed = call;
      return { forLLM: `ran elsewhere: ${call.callId}`, isError: false, silent: false, async: false };
    }, () => undefined);
    expect(extensionOf(toolkit).remote).toBeDefined();
    expect((await toolkit.callTool({ id: 'r1', name: 'far', arguments: '{}' })).forLLM).toBe('ran elsewhere: r1');
    // a runner that logs or serializes the call it got sees what it runs, not the state of the call run
    expect(Object.keys(routed!).sort()).toEqual(['args', 'attempt', 'context', 'deadlineAt', 'entry', 'maxAttempts']);
    expect(JSON.stringify(routed)).not.toMatch(/"(routed|options|availability|parts)":/);
  });

  it('refuses what is not a toolkit, naming what it expected', () => {
    const notAToolkit = { callTool: () => undefined } as unknown as Toolkit;
    expect(() => extensionOf(notAToolkit)).toThrow(ToolkitError);
    expect(() => extensionOf(notAToolkit)).toThrow(/Expected a Toolkit \(new Toolkit\(…\)\)/);
  });
});
