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
import { warningsDuring } from '../support/warnings';

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

  const UNBOUND_WARNING = 'TOOLWRIGHT_PRESET_UNBOUND';

  it('registers unbound (bound on the workers that run it): hidden, one warning naming both fixes, and PRESET_UNBOUND where it is called — the body never runs', async () => {
    const ran: string[] = [];
    class Unrouted {
      @Tool({ name: 'unrouted_export', description: 'Export' })
      exportAll(@ToolParam({ name: 'format', enum: ['csv', 'json'] }) format: string, @ToolParam({ name: 'apiKey', preset: true }) apiKey: string): string {
        ran.push(format);
        return `${format}:${apiKey.length}`;
      }
    }
    const toolkit = newToolkit();
    const warnings = await warningsDuring(UNBOUND_WARNING, () => {
      toolkit.registerTool(Unrouted);
      // the same tool registered again (another toolkit): still one warning per tool
      newToolkit().registerTool(Unrouted);
    });
    const fixes =
      "Bind it when registering: toolkit.registration().tool(Unrouted).presetParameters({ unrouted_export: { apiKey: … } }).apply() (a function or fromContainer(token) is read at each call), " +
      "or, if workers run the tool, route it to them: queueTools(toolkit, { tools: ['unrouted_export'], … }) from toolwright/bullmq once it is registered " +
      "(or { groups: […] } naming its group, before or after), " +
      'which hides it on the caller and binds it on the workers (createToolWorker).';
    expect(warnings).toEqual([
      "Unrouted.exportAll: tool 'unrouted_export' hides the preset parameter(s) 'apiKey' (@ToolParam({ preset: true })), which nothing binds in this process, " +
        `and no route to workers takes the tool yet, so every call of it here fails with PRESET_UNBOUND until one does. ${fixes}`,
    ]);
    expect(toolkit.getToolSchemas()[0].parameters.properties).toEqual({ format: { type: 'string', enum: ['csv', 'json'] } });
    const result = await toolkit.callTool({ id: 'u1', name: 'unrouted_export', arguments: { format: 'csv' } });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('PRESET_UNBOUND');
    expect(result.error?.message).toBe(
      "Tool 'unrouted_export' cannot run in this process: its preset parameter(s) 'apiKey' (preset: true) are bound nowhere here, and no route to workers takes it. " + fixes,
    );
    const sneaky = await toolkit.callTool({ id: 'u2', name: 'unrouted_export', arguments: { format: 'csv', apiKey: 'mine' } });
    expect(sneaky.error?.code).toBe('INVALID_ARGUMENTS');
    expect(ran).toEqual([]);
    // registering it again warns no more
    expect(await warningsDuring(UNBOUND_WARNING, () => newToolkit().registerTool(Unrouted))).toEqual([]);
  });

  it('one warning per tool naming only the unbound parameters, never a bound value; none for a tool whose presets are all bound', async () => {
    const BOUND = 'sk-live-0f9e8d7c6b5a';
    @ToolService({ group: 'exports' })
    class TwoKeys {
      @Tool({ name: 'two_keys', description: 'Needs two secrets' })
      run(@ToolParam({ name: 'apiKey', preset: true }) apiKey: string, @ToolParam({ name: 'signingKey', preset: true }) signingKey: string): string {
        return `${apiKey}${signingKey}`;
      }

      @Tool({ name: 'three_keys', description: 'Needs three secrets, none bound' })
      three(@ToolParam({ name: 'a', preset: true }) a: string, @ToolParam({ name: 'b-key', preset: true }) b: string, @ToolParam({ name: 'c', preset: true }) c: string): string {
        return a + b + c;
      }
    }
    const toolkit = newToolkit();
    const warnings = await warningsDuring(UNBOUND_WARNING, () =>
      toolkit.registration().tool(TwoKeys).presetParameters({ two_keys: { apiKey: BOUND } }).apply(),
    );
    expect(warnings).toHaveLength(2);
    const [two, three] = warnings;
    expect(two).toContain("TwoKeys.run: tool 'two_keys' hides the preset parameter(s) 'signingKey' (");
    expect(two).toContain('presetParameters({ two_keys: { signingKey: … } })');
    expect(two).toContain("queueTools(toolkit, { tools: ['two_keys'], … })");
    expect(two).not.toContain('apiKey');
    expect(three).toContain("hides the preset parameter(s) 'a', 'b-key', 'c' (");
    expect(three).toContain("presetParameters({ three_keys: { a: …, 'b-key': …, c: … } })");
    expect(three).toContain('which hides them on the caller and binds them on the workers');
    expect(warnings.join(' ')).not.toContain(BOUND);
    const result = await toolkit.callTool({ id: 't1', name: 'two_keys', arguments: {} });
    expect(result.error?.code).toBe('PRESET_UNBOUND');
    expect(result.error?.message).toContain("its preset parameter(s) 'signingKey' (preset: true) are bound nowhere here");
    expect(JSON.stringify(result)).not.toContain(BOUND);
    expect(
      await warningsDuring(UNBOUND_WARNING, () =>
        newToolkit().registration().tool(TwoKeys).presetParameters({ two_keys: { apiKey: BOUND, signingKey: () => 's' }, three_keys: { a: '1', 'b-key': '2', c: '3' } }).apply(),
      ),
    ).toEqual([]);
  });

  it('a registration that fails warns about nothing', async () => {
    class Quiet {
      @Tool({ name: 'quiet_export', description: 'Export' })
      run(@ToolParam({ name: 'apiKey', preset: true }) apiKey: string): string {
        return apiKey;
      }
    }
    const taken = newToolkit();
    taken.registerTool({ name: 'quiet_export', description: 'Taken', parameters: { type: 'object', properties: {} }, execute: () => 'taken' });
    const warnings = await warningsDuring(UNBOUND_WARNING, () => {
      thrown(() => taken.registerTool(Quiet), 'DUPLICATE_TOOL');
    });
    expect(warnings).toEqual([]);
    // the failed registration used up nothing: the next one warns
    expect(await warningsDuring(UNBOUND_WARNING, () => newToolkit().registerTool(Quiet))).toHaveLength(1);
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
