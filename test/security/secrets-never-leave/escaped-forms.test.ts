import 'reflect-metadata';
import { Container } from 'inversify';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRedactor, SECRET_PATTERNS, Toolkit, type AgentTool, type ToolResult } from '../../../src';
import { serveMcpHttp } from '../../../src/mcp';
import { Closer, TestClient } from '../../support/mcp';
import { recordEvents } from '../../support/events';
import { findLeaks, traceAll } from '../../support/leaks';

/** A password a user could really have: quotes, a backslash, a newline and non-ASCII text. */
const SECRET = 'pa"ss\\wörd\n-7f3a9c';

function leakyTool(name: string, execute: (key: string) => unknown): AgentTool {
  return {
    name,
    description: `Hands its key back (${name})`,
    parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    behaviour: { retry: { maxAttempts: 2, initialBackoffMs: 1 } },
    execute: (args) => execute(String(args.key)),
  };
}

function setup(): Toolkit {
  const toolkit = new Toolkit({ container: new Container() });
  toolkit
    .registration()
    .tool(leakyTool('as_object', (key) => ({ key, nested: [{ key }] })))
    .tool(leakyTool('as_url', (key) => `https://api.example.com/v1?key=${encodeURIComponent(key)}`))
    .tool(leakyTool('as_json_text', (key) => JSON.stringify({ config: JSON.stringify({ key }) })))
    .tool(
      leakyTool('throws_object', (key) => {
        throw { status: 401, key };
      }),
    )
    .tool(
      leakyTool('throws_json_text', (key) => {
        throw { config: JSON.stringify(JSON.stringify({ key })) }; // escaped three times in the error text
      }),
    )
    .presetParameters({
      as_object: { key: SECRET },
      as_url: { key: SECRET },
      as_json_text: { key: SECRET },
      throws_object: { key: SECRET },
      throws_json_text: { key: SECRET },
    })
    .apply();
  return toolkit;
}

const NAMES = ['as_object', 'as_url', 'as_json_text', 'throws_object', 'throws_json_text'];

describe('a preset with quotes, backslashes and newlines never leaves in escaped or encoded form', () => {
  it('not in results, events or OTel spans', async () => {
    const toolkit = setup();
    const recorder = recordEvents(toolkit);
    const { spans, subscription } = traceAll(toolkit);
    const results: ToolResult[] = [];
    for (const name of NAMES) results.push(await toolkit.callTool({ id: `c-${name}`, name, arguments: {} }));
    subscription.unsubscribe();
    recorder.stop();

    expect(results[0].forLLM).toBe('{"key":"[REDACTED]","nested":[{"key":"[REDACTED]"}]}');
    expect(results[1].forLLM).toBe('https://api.example.com/v1?key=[REDACTED]');
    expect(results[2].forLLM).toBe('{"config":"{\\"key\\":\\"[REDACTED]\\"}"}');
    expect(results[3].forLLM).toBe('Tool \'throws_object\' failed: a non-Error value: {"status":401,"key":"[REDACTED]"} (after 2 attempts)');
    expect(findLeaks(results, [SECRET])).toEqual([]);
    expect(findLeaks(recorder.events, [SECRET])).toEqual([]);
    expect(recorder.events.some((e) => e.type === 'attempt_failed')).toBe(true);
    expect(findLeaks(spans(), [SECRET])).toEqual([]);
    expect(JSON.stringify(spans())).toContain('[REDACTED]');
  });

  it('not in MCP responses over Streamable HTTP', async () => {
    const closer = new Closer();
    try {
      const http = closer.add(await serveMcpHttp(setup(), { name: 'leak-test', version: '0.0.0' }));
      const client = closer.add(new TestClient());
      await client.connect(new StreamableHTTPClientTransport(http.url));
      const responses = [];
      for (const name of NAMES) responses.push(await client.call(name, {}));
      expect(responses[0].content[0]).toEqual({ type: 'text', text: '{"key":"[REDACTED]","nested":[{"key":"[REDACTED]"}]}' });
      expect(findLeaks(responses, [SECRET])).toEqual([]);
    } finally {
      await closer.closeAll();
    }
  });
});

describe('instrumentToolkit captureArguments', () => {
  it('gives `redact` each argument before JSON escapes it (a newline after "Bearer" still matches)', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool({ name: 'fetch_url', description: 'Fetch', parameters: { type: 'object', properties: { header: { type: 'string' } } }, execute: () => 'ok' });
    const { spans, subscription } = traceAll(toolkit, { redact: createRedactor({ patterns: [SECRET_PATTERNS.bearerToken] }).text });
    await toolkit.callTool({ id: 'b', name: 'fetch_url', arguments: { header: 'Bearer\nabcdefgh12345678' } });
    subscription.unsubscribe();
    expect(findLeaks(spans(), ['abcdefgh12345678'])).toEqual([]);
    expect(JSON.stringify(spans())).toContain('Bearer\\\\n[REDACTED]');
  });
});
