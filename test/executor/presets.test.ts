import 'reflect-metadata';
import { Container } from 'inversify';
import {
  fromContainer,
  Tool,
  ToolEmitter,
  ToolParam,
  ToolService,
  type AgentTool,
  type ToolCallContext,
  type ToolResult,
} from '../../src';
import { call, expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';
import { thrown } from '../support/errors';
import { eventsText, recordEvents } from '../support/events';

afterAll(() => expectAllSchemasMetaValid());

const SECRET = 'sk-live-7f3a9c2e1b';
const API_KEY = Symbol('EMAIL_API_KEY');

@ToolService({ group: 'email' })
class EmailService {
  readonly keys: string[] = [];

  @Tool({ name: 'send_email', description: 'Send an email', timeoutMs: 500 })
  async sendEmail(
    @ToolParam({ name: 'to', description: 'Recipient' }) to: string,
    @ToolParam({ name: 'subject', required: false, type: () => String }) subject: string | undefined,
    @ToolParam({ name: 'apiKey', description: 'The API key' }) apiKey: string,
    signal: AbortSignal,
    emitter: ToolEmitter,
  ): Promise<string> {
    this.keys.push(apiKey);
    emitter.emit({ message: `using ${apiKey}`, data: { key: apiKey } });
    if (to === 'throw@x.io') throw new Error(`auth failed for key ${apiKey}`);
    if (to === 'string@x.io') throw `bad key ${apiKey}`;
    if (to === 'object@x.io') throw { reason: 'bad key', key: apiKey };
    if (to === 'data@x.io') return { sentWith: apiKey } as unknown as string;
    if (to === 'slow@x.io') {
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      throw new Error(`aborted while using ${apiKey}`);
    }
    return `sent to ${to}${subject ? ` (${subject})` : ''}`;
  }

  @Tool({ description: 'Echo the key back (a careless tool)' })
  leakKey(@ToolParam({ name: 'apiKey' }) apiKey: string) {
    return `the key is ${apiKey}`;
  }
}

function setup(apiKey: unknown = SECRET, container = new Container()) {
  const toolkit = newToolkit({ container });
  toolkit
    .registration()
    .tool(EmailService)
    .presetParameters({ send_email: { apiKey: apiKey as string }, leak_key: { apiKey: apiKey as string } })
    .apply();
  return { toolkit, service: container.get(EmailService) };
}

describe('hidden parameters', () => {
  it('disappear from schemas, active tools and every provider definition', () => {
    const { toolkit } = setup();
    const expected = {
      type: 'object',
      properties: { to: { type: 'string', description: 'Recipient' }, subject: { type: 'string' } },
      required: ['to'],
      additionalProperties: false,
    };
    expect(toolkit.getToolSchemas()[0]).toEqual({ name: 'send_email', description: 'Send an email', parameters: expected });
    expect(toolkit.getActiveTools()[0].parameters).toEqual(expected);
    expect(toolkit.getTool('send_email')!.parameters).toEqual(expected);
    expect(toolkit.getActiveTools()[1].parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    const everything = JSON.stringify([
      toolkit.getToolSchemas(),
      toolkit.getActiveTools().map((t) => t.parameters),
      toolkit.getAllTools().map((t) => t.parameters),
      toolkit.toProviderDefs('openai'),
      toolkit.toProviderDefs('openai', { strict: true }),
      toolkit.toProviderDefs('openai-responses'),
      toolkit.toProviderDefs('openai-responses', { strict: true }),
      toolkit.toProviderDefs('anthropic'),
      toolkit.toProviderDefs('gemini'),
      toolkit.session('s').toProviderDefs('openai', { strict: true }),
    ]);
    expect(everything).not.toContain('apiKey');
    expect(everything).not.toContain('API key');
    expect(everything).not.toContain(SECRET);
  });

  it('are filled at call time; a model sending one gets INVALID_ARGUMENTS and the tool does not run', async () => {
    const { toolkit, service } = setup();
    expect((await call(toolkit, 'send_email', { to: 'a@x.io', subject: 'Hi' })).forLLM).toBe('sent to a@x.io (Hi)');
    expect(service.keys).toEqual([SECRET]);
    for (const sent of [{ apiKey: 'mine' }, { apiKey: null }, { apiKey: SECRET }]) {
      const result = await call(toolkit, 'send_email', { to: 'a@x.io', ...sent });
      expect(result.error).toEqual({
        code: 'INVALID_ARGUMENTS',
        message: "Invalid arguments for tool 'send_email':\n- 'apiKey': is not a parameter of this tool (remove it)\nFix these and call the tool again.",
      });
    }
    const raw = await call(toolkit, 'send_email', '{"to":"a@x.io","apiKey":"mine"}');
    expect(raw.error?.code).toBe('INVALID_ARGUMENTS');
    expect(service.keys).toEqual([SECRET]);
  });

  it('are resolved lazily, on every call, from a sync function, an async function or the container', async () => {
    let n = 0;
    const seenContexts: ToolCallContext[] = [];
    const sync = setup((ctx: ToolCallContext) => {
      seenContexts.push(ctx);
      return `sync-secret-${++n}`;
    });
    expect(n).toBe(0);
    await call(sync.toolkit, 'send_email', { to: 'a@x.io' });
    await call(sync.toolkit, 'send_email', { to: 'b@x.io' });
    expect(sync.service.keys).toEqual(['sync-secret-1', 'sync-secret-2']);
    expect(seenContexts.map((c) => c.toolName)).toEqual(['send_email', 'send_email']);

    let m = 0;
    const asyncPreset = setup(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return `async-secret-${++m}`;
    });
    expect((await call(asyncPreset.toolkit, 'send_email', { to: 'a@x.io' })).forLLM).toBe('sent to a@x.io');
    expect(asyncPreset.service.keys).toEqual(['async-secret-1']);

    const container = new Container();
    let k = 0;
    container.bind(API_KEY).toDynamicValue(() => `container-secret-${++k}`);
    const fromDi = setup(fromContainer(API_KEY), container);
    expect(k).toBe(0);
    await call(fromDi.toolkit, 'send_email', { to: 'a@x.io' });
    await call(fromDi.toolkit, 'send_email', { to: 'a@x.io' });
    expect(fromDi.service.keys).toEqual(['container-secret-1', 'container-secret-2']);
  });

  it('a failing resolver is an error result that does not run the tool', async () => {
    const { toolkit, service } = setup(() => {
      throw new Error('vault unreachable');
    });
    const result = await call(toolkit, 'send_email', { to: 'a@x.io' });
    expect(result.isError).toBe(true);
    expect(result.forLLM).toContain('vault unreachable');
    expect(service.keys).toEqual([]);
    const missing = setup(fromContainer(Symbol('unbound')));
    expect((await call(missing.toolkit, 'send_email', { to: 'a@x.io' })).isError).toBe(true);
    expect(missing.service.keys).toEqual([]);
  });

  it('also hide parameters of AgentTool objects', async () => {
    const seen: Record<string, unknown>[] = [];
    const tool: AgentTool = {
      name: 'query_db',
      description: 'Query the database',
      parameters: {
        type: 'object',
        properties: { sql: { type: 'string' }, password: { type: 'string' } },
        required: ['sql', 'password'],
      },
      execute: (args) => {
        seen.push(args);
        return 'rows';
      },
    };
    const toolkit = newToolkit();
    toolkit.registerTool(tool, { presets: { query_db: { password: SECRET } } });
    expect(toolkit.getToolSchemas()[0].parameters).toEqual({ type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] });
    expect(toolkit.getActiveTools()[0].parameters).toEqual({ type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] });
    expect(JSON.stringify(toolkit.toProviderDefs('openai', { strict: true }))).not.toContain('password');
    expect((await call(toolkit, 'query_db', { sql: 'select 1' })).forLLM).toBe('rows');
    expect(seen).toEqual([{ sql: 'select 1', password: SECRET }]);
    expect((await call(toolkit, 'query_db', { sql: 'x', password: 'guess' })).error?.code).toBe('INVALID_ARGUMENTS');
    expect(seen).toHaveLength(1);
  });

  it('must name a registered tool and one of its parameters', () => {
    const toolkit = newToolkit();
    const error = thrown(
      () => toolkit.registration().tool(EmailService).presetParameters({ send_email: { apiKey: 'x', token: 'y' } }).apply(),
      'INVALID_DEFINITION',
    );
    expect(error.message).toBe("EmailService.sendEmail: preset(s) 'token' match no parameter of tool 'send_email'. Its parameters: to, subject, apiKey.");
    expect(toolkit.getAllTools()).toEqual([]);
  });
});

describe('preset values never leak', () => {
  async function scenario(preset: unknown): Promise<{ results: ToolResult[]; eventText: string; progress: string }> {
    const { toolkit } = setup(preset);
    const recorder = recordEvents(toolkit);
    const progress: unknown[] = [];
    const results = [
      await call(toolkit, 'send_email', { to: 'a@x.io' }, { onProgress: (p) => progress.push(p) }),
      await call(toolkit, 'send_email', { to: 'throw@x.io' }),
      await call(toolkit, 'send_email', { to: 'slow@x.io' }),
      await call(toolkit, 'leak_key', {}),
      await call(toolkit, 'send_email', { to: 'a@x.io', apiKey: SECRET }),
      await call(toolkit, 'send_email', `{"to":"a@x.io","apiKey":"${SECRET}"`),
      await call(toolkit, 'send_email', { to: 5, apiKey: null }),
      await call(toolkit, 'send_email', { to: 'string@x.io' }),
      await call(toolkit, 'send_email', { to: 'object@x.io' }),
      await call(toolkit, 'send_email', { to: 'data@x.io' }),
    ];
    recorder.stop();
    return { results, eventText: eventsText(recorder.events), progress: JSON.stringify(progress) };
  }

  it.each([
    ['a plain value', SECRET],
    ['a function', () => SECRET],
    ['an async function', async () => SECRET],
  ])('from %s: not in results, error messages or any event, even when the tool throws it or times out', async (_label, preset) => {
    const { results, eventText, progress } = await scenario(preset);
    expect(results.map((r) => r.error?.code)).toEqual([
      undefined,
      'EXECUTION_FAILED',
      'TIMEOUT',
      undefined,
      'INVALID_ARGUMENTS',
      'MALFORMED_ARGUMENTS',
      'INVALID_ARGUMENTS',
      'EXECUTION_FAILED',
      'EXECUTION_FAILED',
      undefined,
    ]);
    expect(results[1].forLLM).toBe("Tool 'send_email' failed: auth failed for key [REDACTED]");
    expect(results[2].forLLM).toMatch(/^Tool 'send_email' timed out after 500 ms\./);
    expect(results[3].forLLM).toBe('the key is [REDACTED]');
    const text = JSON.stringify(results);
    // the model's own copy of the secret (results[4], results[5]) is echoed nowhere either
    expect(text).not.toContain(SECRET);
    expect(eventText).toContain('call_timed_out');
    expect(eventText).toContain('auth failed for key');
    expect(eventText).not.toContain(SECRET);
    expect(progress).not.toContain(SECRET);
  });
});

describe('@ToolParam({ preset: true })', () => {
  class Bulk {
    @Tool({ name: 'bulk_export', description: 'Export' })
    exportAll(@ToolParam({ name: 'format', enum: ['csv', 'json'] }) format: string, @ToolParam({ name: 'apiKey', preset: true }) apiKey: string): string {
      return `${format}:${apiKey.length}`;
    }
  }

  it('a preset forgotten at registration is INVALID_DEFINITION at once, naming the tool, the parameter and the fix; nothing is registered', () => {
    const toolkit = newToolkit();
    const error = thrown(() => toolkit.registerTool(Bulk), 'INVALID_DEFINITION');
    expect(error.message).toBe(
      "Bulk.exportAll: tool 'bulk_export' hides the preset parameter(s) 'apiKey' (@ToolParam({ preset: true })), and nothing binds them here, so every call would fail. " +
        'Bind them: toolkit.registration().tool(Bulk).presetParameters({ bulk_export: { apiKey: … } }).apply() (a function or fromContainer(token) is read at each call). ' +
        "If workers run the tool, put it in a group (.group('reports')), route that group with queueTools(toolkit, { groups: ['reports'], … }) from toolwright/bullmq, then register it (the workers bind the preset).",
    );
    expect(error.tool).toBe('bulk_export');
    expect(toolkit.getToolSchemas()).toEqual([]);
    // the whole registration is refused: the service without presets registered beside it too
    class Plain {
      @Tool({ name: 'plain', description: 'Plain' })
      plain(): string {
        return 'ok';
      }
    }
    thrown(() => toolkit.registration().tool(Plain).tool(Bulk).apply(), 'INVALID_DEFINITION');
    expect(toolkit.getToolSchemas()).toEqual([]);
  });

  it('names only the unbound parameters, never a bound value, and for a grouped tool the group to route', () => {
    @ToolService({ group: 'exports' })
    class TwoKeys {
      @Tool({ name: 'two_keys', description: 'Needs two secrets' })
      run(@ToolParam({ name: 'apiKey', preset: true }) apiKey: string, @ToolParam({ name: 'signingKey', preset: true }) signingKey: string): string {
        return `${apiKey}${signingKey}`;
      }
    }
    const error = thrown(() => newToolkit().registration().tool(TwoKeys).presetParameters({ two_keys: { apiKey: 'sk-live-0f9e8d7c6b5a' } }).apply(), 'INVALID_DEFINITION');
    expect(error.message).toContain("hides the preset parameter(s) 'signingKey' (");
    expect(error.message).toContain('presetParameters({ two_keys: { signingKey: … } })');
    expect(error.message).toContain("route its group first: queueTools(toolkit, { groups: ['exports'], … })");
    expect(error.message).not.toContain('apiKey');
    expect(`${error.message} ${error.stack ?? ''} ${JSON.stringify(error)}`).not.toContain('sk-live-0f9e8d7c6b5a');
  });

  it('a preset bound to what exists only later (a function, fromContainer) registers, and is read at call time', async () => {
    const API = Symbol('bulk api key');
    const container = new Container();
    let rotated: string | undefined;
    const toolkit = newToolkit({ container });
    toolkit.registration().tool(Bulk).presetParameters({ bulk_export: { apiKey: fromContainer(API) } }).apply();
    const lazy = newToolkit();
    lazy.registration().tool(Bulk).presetParameters({ bulk_export: { apiKey: () => rotated ?? 'unset' } }).apply();
    container.bind(API).toConstantValue('sk-bound-after-registration');
    rotated = 'sk-rotated';
    expect((await call(toolkit, 'bulk_export', { format: 'json' })).forLLM).toBe('json:27');
    expect((await call(lazy, 'bulk_export', { format: 'csv' })).forLLM).toBe('csv:10');
  });

  it('is hidden and filled from the preset once bound', async () => {
    const toolkit = newToolkit();
    toolkit.registration().tool(Bulk).presetParameters({ bulk_export: { apiKey: 'sk-bulk-secret' } }).apply();
    expect(toolkit.getToolSchemas()[0].parameters.properties).toEqual({ format: { type: 'string', enum: ['csv', 'json'] } });
    const result = await toolkit.callTool({ id: 'b1', name: 'bulk_export', arguments: '{"format":"csv"}' });
    expect(result.forLLM).toBe('csv:14');
    const sneaky = await toolkit.callTool({ id: 'b2', name: 'bulk_export', arguments: '{"format":"csv","apiKey":"mine"}' });
    expect(sneaky.error?.code).toBe('INVALID_ARGUMENTS');
  });
});
