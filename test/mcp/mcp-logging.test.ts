import 'reflect-metadata';
import { EmptyResultSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { LOG_LEVELS, Tool, ToolEmitter, ToolParam, ToolService, Toolkit, type CallLog } from '../../src';
import { serveMcpHttp } from '../../src/mcp';
import { recordEvents } from '../support/events';
import { Closer, textOf } from '../support/mcp';
import { AskingClient, connectAsking } from '../support/mcp-asking';
import { messagesOf, post, rawSession, toolsCall } from '../support/mcp-http';

const closer = new Closer();
afterEach(() => closer.closeAll());

/** A preset value with characters that JSON and URLs escape, so every encoding of it is checked. */
const SECRET = 'sk-"live"\\ünï/2024-ABCDEFGH';

/** The documented bound (README, "a call queues at most 64 messages"), not the source's constant: changing it must fail here. */
const LOG_QUEUE_LIMIT = 64;

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@ToolService()
class LogService {
  /** The conformance suite's `test_tool_with_logging`. */
  @Tool({ description: 'Logs three messages while it runs' })
  async threeLogs(emitter: ToolEmitter): Promise<string> {
    emitter.log('info', 'Tool execution started');
    await tick(20);
    emitter.log('info', 'Tool processing data');
    await tick(20);
    emitter.log('info', 'Tool execution completed');
    return 'done';
  }

  @Tool({ description: 'Logs once at every level' })
  everyLevel(emitter: ToolEmitter): string {
    for (const level of LOG_LEVELS) emitter.log(level, `at ${level}`, 'levels');
    return 'ok';
  }

  @Tool({ description: 'Logs its secret in every way it can' })
  leaky(@ToolParam({ name: 'apiKey', preset: true }) apiKey: string, emitter: ToolEmitter): string {
    emitter.log('error', { header: `Bearer ${apiKey}`, nested: [apiKey], json: JSON.stringify({ apiKey }), url: encodeURIComponent(apiKey) }, `auth-${apiKey}`);
    // the secret lies across the 8 KiB cut: redacted before the cut, no prefix of it is left
    emitter.log('info', 'x'.repeat(8_170) + apiKey + 'z'.repeat(100));
    emitter.log('warning', { long: 'y'.repeat(9_000), key: apiKey });
    return 'ok';
  }

  @Tool({ description: 'Logs in a tight loop' })
  flood(@ToolParam({ name: 'count', integer: true }) count: number, emitter: ToolEmitter): string {
    for (let i = 0; i < count; i++) emitter.log('info', `line ${i}`);
    return 'flooded';
  }

  @Tool({ description: 'Logs at a level that does not exist' })
  badLevel(emitter: ToolEmitter): string {
    emitter.log('verbose' as never, 'nope');
    return 'unreachable';
  }

  @Tool({ description: 'Logs after it answered' })
  late(emitter: ToolEmitter): string {
    setTimeout(() => emitter.log('info', 'too late'), 5);
    return 'answered';
  }
}

function logToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registration().tool(LogService).presetParameters({ leaky: { apiKey: SECRET } }).apply();
  return toolkit;
}

/** Every piece of `secret` of 8 or more characters (a cut may leave a prefix), in its raw and escaped forms. */
function leakedPiece(text: string, secret: string): string | undefined {
  for (let length = secret.length; length >= 8; length--) {
    for (let start = 0; start + length <= secret.length; start++) {
      const piece = secret.slice(start, start + length);
      for (const form of [piece, JSON.stringify(piece).slice(1, -1), encodeURIComponent(piece)]) if (text.includes(form)) return form;
    }
  }
  return undefined;
}

describe('MCP logging', () => {
  test('the conformance expectations: logging/setLevel answers {}; a tool logging three times sends three notifications/message before its response', async () => {
    const { client } = await connectAsking(logToolkit(), closer, new AskingClient({}));
    expect(client.client.getServerCapabilities()?.logging).toEqual({});
    expect(await client.client.setLoggingLevel('debug')).toEqual({});
    const result = await client.call('three_logs');
    expect(textOf(result)).toBe('done');
    // no waiting: the messages were written before the response
    expect(client.logs).toEqual([
      { level: 'info', data: 'Tool execution started' },
      { level: 'info', data: 'Tool processing data' },
      { level: 'info', data: 'Tool execution completed' },
    ]);
  });

  test('the level filters: info until the client sets one (or the logLevel option), then the client’s, per MCP session', async () => {
    const toolkit = logToolkit();
    const a = (await connectAsking(toolkit, closer, new AskingClient({}))).client;
    const b = (await connectAsking(toolkit, closer, new AskingClient({}))).client;
    const quiet = (await connectAsking(toolkit, closer, new AskingClient({}), { logLevel: 'error' })).client;
    const levelsOf = (client: AskingClient) => client.logs.map((log) => log.level);

    await a.call('every_level');
    expect(levelsOf(a)).toEqual(LOG_LEVELS.slice(1));
    expect(a.logs[0]).toEqual({ level: 'info', logger: 'levels', data: 'at info' });

    await b.client.setLoggingLevel('warning');
    await b.call('every_level');
    await a.call('every_level');
    expect(levelsOf(b)).toEqual(['warning', 'error', 'critical', 'alert', 'emergency']);
    expect(levelsOf(a)).toHaveLength(14); // a's level is still its own

    await quiet.call('every_level');
    expect(levelsOf(quiet)).toEqual(['error', 'critical', 'alert', 'emergency']);
    await quiet.client.setLoggingLevel('debug');
    await quiet.call('every_level');
    expect(levelsOf(quiet).slice(4)).toEqual([...LOG_LEVELS]);
  });

  test('a level that is not an RFC 5424 level is an InvalidParams error; the session goes on', async () => {
    const { client } = await connectAsking(logToolkit(), closer, new AskingClient({}));
    for (const params of [{ level: 'verbose' }, {}, { level: 7 }]) {
      await expect(client.client.request({ method: 'logging/setLevel', params } as never, EmptyResultSchema)).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message: expect.stringContaining('use one of debug, info, notice'),
      });
    }
    await client.call('every_level');
    expect(client.logs).toHaveLength(7);
  });

  test('adversarial: a preset value the tool logs (data, logger, escaped, URL-encoded, across the 8 KiB cut) never reaches the client or events$', async () => {
    const toolkit = logToolkit();
    const recording = recordEvents(toolkit);
    const { client } = await connectAsking(toolkit, closer, new AskingClient({}));
    expect(textOf(await client.call('leaky'))).toBe('ok');
    recording.stop();

    expect(client.logs).toHaveLength(3);
    const sent = JSON.stringify(client.logs);
    expect(leakedPiece(sent, SECRET)).toBeUndefined();
    expect(client.logs[0].logger).toBe('auth-[REDACTED]');
    expect(client.logs[0].data).toMatchObject({ header: 'Bearer [REDACTED]', nested: ['[REDACTED]'] });
    // bounded: a long text is cut at 8 KiB; a long value becomes its JSON text, cut
    expect(client.logs[1].data).toEqual(expect.stringMatching(/^x{8170}\[REDACTED\]z+…$/));
    expect((client.logs[1].data as string).length).toBe(8_192);
    expect(typeof client.logs[2].data).toBe('string');
    expect((client.logs[2].data as string).length).toBeLessThanOrEqual(8_192);

    const logged = recording.of('call_log');
    expect(logged.map((e) => e.level)).toEqual(['error', 'info', 'warning']);
    expect(leakedPiece(JSON.stringify(logged), SECRET)).toBeUndefined();
  });

  test(`bounded: a tool logging 100,000 times in a tight loop queues at most ${LOG_QUEUE_LIMIT} notifications, then says how many it dropped`, async () => {
    const { client } = await connectAsking(logToolkit(), closer, new AskingClient({}));
    expect(textOf(await client.call('flood', { count: 100_000 }))).toBe('flooded');
    // the first is being written while the loop runs, the next LOG_QUEUE_LIMIT wait, the rest are counted
    expect(client.logs).toHaveLength(LOG_QUEUE_LIMIT + 2);
    expect(client.logs[LOG_QUEUE_LIMIT].data).toBe(`line ${LOG_QUEUE_LIMIT}`);
    expect(client.logs[LOG_QUEUE_LIMIT + 1]).toEqual({
      level: 'warning',
      logger: 'toolwright',
      data: `${100_000 - LOG_QUEUE_LIMIT - 1} log message(s) of this call were dropped: they came faster than the client read them.`,
    });
    // the next call starts with an empty queue
    await client.call('flood', { count: 3 });
    expect(client.logs.slice(LOG_QUEUE_LIMIT + 2).map((log) => log.data)).toEqual(['line 0', 'line 1', 'line 2']);
  });

  test('over Streamable HTTP the messages travel on the stream of the call that logged them, before its result', async () => {
    const http = closer.add(await serveMcpHttp(logToolkit(), { name: 't', version: '1', port: 0 }));
    const session = await rawSession(http.url);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    await post(http.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'debug' } }), headers);
    const answer = await post(http.url, toolsCall(3, 'three_logs'), headers);
    const messages = messagesOf(answer.text);
    expect(messages.map((m) => m.method ?? `result ${m.id}`)).toEqual(['notifications/message', 'notifications/message', 'notifications/message', 'result 3']);
    expect(messages[2].params).toEqual({ level: 'info', data: 'Tool execution completed' });
  });
});

describe('logging outside MCP', () => {
  test('toolkit.callTool: call_log events and onLog, tagged with the call; messages after the call ended are dropped', async () => {
    const toolkit = logToolkit();
    const recording = recordEvents(toolkit);
    const logs: CallLog[] = [];
    const result = await toolkit.callTool({ id: 'c1', name: 'every_level', arguments: {} }, { onLog: (log) => logs.push(log), sessionId: 's-1' });
    expect(result.forLLM).toBe('ok');
    expect(logs.map((log) => log.level)).toEqual([...LOG_LEVELS]);
    expect(logs[0]).toEqual({ level: 'debug', data: 'at debug', logger: 'levels', callId: 'c1', tool: 'every_level' });
    expect(recording.of('call_log')[0]).toMatchObject({ type: 'call_log', callId: 'c1', tool: 'every_level', sessionId: 's-1', level: 'debug', attempt: 1 });

    const before = recording.of('call_log').length;
    await toolkit.callTool({ id: 'c2', name: 'late', arguments: {} });
    await tick(20);
    expect(recording.of('call_log')).toHaveLength(before);
    recording.stop();
  });

  test('a level that is none of LOG_LEVELS fails the call with a message naming them; an onLog that throws does not', async () => {
    const toolkit = logToolkit();
    const bad = await toolkit.callTool({ id: 'c1', name: 'bad_level', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(bad.forLLM).toContain(`logged at level "verbose", which is none of ${LOG_LEVELS.join(', ')}`);

    const recording = recordEvents(toolkit);
    const ok = await toolkit.callTool({ id: 'c2', name: 'every_level', arguments: {} }, { onLog: () => { throw new Error('subscriber broke'); } });
    expect(ok.forLLM).toBe('ok');
    expect(recording.of('callback_failed')[0]).toMatchObject({ source: 'onLog', callId: 'c2' });
    recording.stop();
  });

  test('plain AgentTools log through ctx.log', async () => {
    const toolkit = new Toolkit();
    toolkit.registerTool({
      name: 'plain',
      description: 'Logs through its context',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) => {
        ctx.log?.('notice', { step: 1 }, 'plain');
        return 'ok';
      },
    });
    const logs: CallLog[] = [];
    await toolkit.callTool({ id: 'p1', name: 'plain', arguments: {} }, { onLog: (log) => logs.push(log) });
    expect(logs).toEqual([{ level: 'notice', data: { step: 1 }, logger: 'plain', callId: 'p1', tool: 'plain' }]);
  });
});
