import { join } from 'node:path';
import fc from 'fast-check';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { CallProgress, ToolResult } from '../../../src';
import { serveMcpHttp } from '../../../src/mcp';
import { Closer, connectStdio, TestClient } from '../../support/mcp';
import { createLeakyToolkit, LEAK_MODES, leavesOf, type LeakMode, type LeakyToolSpec, type PresetSpec } from './fixtures/leaky-toolkit';
import { recordEvents } from '../../support/events';
import { findLeaks, traceAll } from '../../support/leaks';

/**
 * The property: whatever preset values a tool has (strings with quotes, backslashes, newlines,
 * non-ASCII and lone surrogates; numbers; objects of those) and however it hands them back
 * (text, objects, ToolResults, Errors, thrown objects at the 500-character cut, Maps, Sets, class
 * instances, toJSON, bytes, progress, retries, background completions, echoes, any
 * maxResultChars), no form of any of them (raw, JSON-escaped once or twice, URL-encoded, the
 * first or last 8 characters of those) reaches results, progress, completions, events$, OTel
 * spans, or MCP responses over Streamable HTTP and stdio (a real child process, whose stderr is
 * scanned too).
 */

/** A distinctive run of letters, so that a secret's 8-character ends cannot occur by chance. */
const marker = fc.stringMatching(/^[g-z]{6}$/);
const tricky = fc.constantFrom('"', '\\', '\n', '\r', '\t', "'", 'é', '€', '😀', '\ud800', '\u2028', '/', '&', '=', '%', '+', ' ', '<', '\u0000', 'a', '{');
const secretString = fc.tuple(marker, fc.string({ unit: tricky, maxLength: 6 }), marker).map(([a, middle, b]) => `${a}${middle}${b}`);
const secretNumber = fc.oneof(
  fc.integer({ min: 10_000_000, max: 2_000_000_000 }),
  fc.integer({ min: 10_000_000, max: 2_000_000_000 }).map((n) => n / 1000),
);
const presetValue: fc.Arbitrary<PresetSpec> = fc.oneof(
  secretString,
  secretNumber,
  fc.record({
    user: secretString,
    pin: secretNumber,
    nested: fc.record({ token: secretString, list: fc.array(fc.oneof(secretString, secretNumber), { maxLength: 2 }) }),
  }),
);
const toolSpec = fc.record({
  presets: fc.array(presetValue, { minLength: 1, maxLength: 3 }),
  dynamic: fc.boolean(),
  maxResultChars: fc.option(fc.integer({ min: 40, max: 400 }), { nil: undefined }),
});
const scenario = fc.record({
  tools: fc.array(toolSpec, { minLength: 1, maxLength: 2 }),
  calls: fc.array(fc.record({ tool: fc.nat(), mode: fc.constantFrom(...LEAK_MODES), pad: fc.nat(600) }), { minLength: 1, maxLength: 6 }),
  maxResultChars: fc.option(fc.integer({ min: 40, max: 600 }), { nil: undefined }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function specsOf(s: Scenario, prefix: string): LeakyToolSpec[] {
  return s.tools.map((t, i) => ({
    name: `${prefix}${i}`,
    presets: Object.fromEntries(t.presets.map((value, j) => [`p${j}`, value])),
    dynamic: t.dynamic,
    ...(t.maxResultChars !== undefined ? { maxResultChars: t.maxResultChars } : {}),
  }));
}

/**
 * The calls of a scenario: one `text` call per tool first, then the generated ones, which also
 * send the model's own copy of a preset value (`note`). The first call carries none: before a
 * call-time preset has resolved once, its value is unknown (the documented limit of `call_started`).
 */
function callsOf(s: Scenario, specs: readonly LeakyToolSpec[]): { tool: string; args: { mode: LeakMode; pad: number; note: string } }[] {
  const note = (spec: LeakyToolSpec) => `my copy: ${String(leavesOf(spec.presets)[0])}`;
  return [
    ...specs.map((spec) => ({ tool: spec.name, args: { mode: 'text' as const, pad: 0, note: '' } })),
    ...s.calls.map((c) => {
      const spec = specs[c.tool % specs.length];
      return { tool: spec.name, args: { mode: c.mode, pad: c.pad, note: note(spec) } };
    }),
  ];
}

const secretsOf = (specs: readonly LeakyToolSpec[]): (string | number)[] => specs.flatMap((spec) => leavesOf(spec.presets));
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function expectNoLeaks(found: ReturnType<typeof findLeaks>): void {
  if (found.length > 0) throw new Error(`leaked: ${JSON.stringify(found.slice(0, 3))}`);
}

describe('no preset value leaves, in any form, on any channel (property)', () => {
  it('in-process: results, errors, progress, completions, events$ and OTel spans', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const specs = specsOf(s, 'leaky_');
        const toolkit = createLeakyToolkit(specs, s.maxResultChars === undefined ? {} : { maxResultChars: s.maxResultChars });
        const recorder = recordEvents(toolkit);
        const tracing = traceAll(toolkit);
        const results: ToolResult[] = [];
        const progress: CallProgress[] = [];
        const completed: ToolResult[] = [];
        let n = 0;
        for (const call of callsOf(s, specs)) {
          results.push(
            await toolkit.callTool(
              { id: `c${n++}`, name: call.tool, arguments: call.args },
              { onProgress: (p) => progress.push(p), onAsyncComplete: (r) => completed.push(r) },
            ),
          );
        }
        await settle();
        tracing.subscription.unsubscribe();
        recorder.stop();
        expect(results.every((r) => typeof r.forLLM === 'string')).toBe(true);
        expectNoLeaks(findLeaks({ results, progress, completed, events: recorder.events, spans: tracing.spans() }, secretsOf(specs)));
      }),
      { numRuns: 60 },
    );
  });

  /** A few scenarios as one catalogue (tool names made unique), for the MCP channels. */
  function catalogue(seed: number): { specs: LeakyToolSpec[]; calls: ReturnType<typeof callsOf>; maxResultChars: number } {
    const samples = fc.sample(scenario, { numRuns: 8, seed });
    const specs: LeakyToolSpec[] = [];
    const calls: ReturnType<typeof callsOf> = [];
    samples.forEach((s, i) => {
      const own = specsOf(s, `leaky_${i}_`);
      specs.push(...own);
      calls.push(...callsOf(s, own));
    });
    return { specs, calls, maxResultChars: 500 };
  }

  async function callAll(client: TestClient, calls: ReturnType<typeof callsOf>): Promise<unknown[]> {
    const seen: unknown[] = [];
    for (const call of calls) {
      const progress: Progress[] = [];
      seen.push(await client.call(call.tool, call.args, (p) => progress.push(p)), progress);
    }
    return seen;
  }

  it('over MCP Streamable HTTP (official client, 127.0.0.1, port 0)', async () => {
    const closer = new Closer();
    try {
      const { specs, calls, maxResultChars } = catalogue(0x5ec2e7);
      const http = closer.add(await serveMcpHttp(createLeakyToolkit(specs, { maxResultChars }), { name: 'leaky', version: '0.0.0' }));
      const client = closer.add(new TestClient());
      await client.connect(new StreamableHTTPClientTransport(http.url));
      const responses = await callAll(client, calls);
      expect(responses.length).toBe(calls.length * 2);
      expectNoLeaks(findLeaks(responses, secretsOf(specs)));
    } finally {
      await closer.closeAll();
    }
  });

  it('over MCP stdio (a real child process; its stderr too)', async () => {
    const closer = new Closer();
    try {
      const { specs, calls, maxResultChars } = catalogue(0x57d10);
      const env = { ...(process.env as Record<string, string>), LEAKY_SPEC: JSON.stringify({ specs, maxResultChars }) };
      const { client, stderr } = await connectStdio(closer, [join(__dirname, 'fixtures', 'leaky-stdio-server.js')], env);
      const responses = await callAll(client, calls);
      expect(responses.length).toBe(calls.length * 2);
      expectNoLeaks(findLeaks({ responses, stderr: stderr() }, secretsOf(specs)));
    } finally {
      await closer.closeAll();
    }
  }, 30_000);
});
