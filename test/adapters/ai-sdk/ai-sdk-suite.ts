import 'reflect-metadata';
import {
  contentResult,
  defineSkill,
  imageContent,
  Tool,
  ToolEmitter,
  ToolExecutionContext,
  ToolParam,
  ToolService,
  type AgentTool,
  type ToolEvent,
  type ToolResult,
} from '../../../src';
import { AiSdkToolError, isAiSdkToolProgress, toAiSdkTools, toAiSdkToolsContext } from '../../../src/adapters/ai-sdk';
import { RED_PIXEL_PNG } from '../../support/content';
import { freshToolkit } from '../../support/toolkit';

/**
 * The one suite of `toolwright/ai-sdk`, run against `ai` 6 (ai-sdk-v6.test.ts), `ai` 5
 * (ai-sdk-v5.test.ts, where `ai` is `ai@5` under the alias `ai-v5`) and `ai` 7 (ai-sdk-v7.test.ts,
 * `ai-v7`, Node 22 and later), each with its own mock language model from `ai/test` driving the
 * real `generateText` / `streamText` loops.
 */

/** A tool with a map argument: OpenAI's strict mode has no form for it, so a strict tool set leaves it out. */
const TAG_MAP: AgentTool = {
  name: 'tag_map',
  description: 'A map argument (no strict form)',
  parameters: { type: 'object', properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } } },
  execute: () => 'ok',
};

/** What the suite uses of one `ai` major, typed loosely enough for all. */
export interface SdkUnderTest {
  readonly major: 5 | 6 | 7;
  generateText(options: Record<string, unknown>): Promise<GenerateResult>;
  streamText(options: Record<string, unknown>): { fullStream: AsyncIterable<StreamPart>; text: PromiseLike<string> };
  /** `stepCountIs` (`isStepCount` in `ai` 7). */
  stepCountIs(count: number): unknown;
  /** `new MockLanguageModelV2(...)`, `V3` or `V4`. */
  mockModel(doGenerate: (options: ModelCallOptions) => Promise<unknown>, doStream: (options: ModelCallOptions) => Promise<unknown>): unknown;
  /** `convertArrayToReadableStream` of `ai/test`. */
  readableStream(parts: unknown[]): unknown;
}

export interface StepContent {
  readonly type: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly error?: unknown;
  readonly preliminary?: boolean;
}
export interface GenerateResult {
  readonly text: string;
  readonly steps: readonly { readonly content: readonly StepContent[] }[];
  readonly toolResults: readonly StepContent[];
}
export type StreamPart = StepContent;

/** What the mock model receives: the tools offered and the prompt (with the tool results). */
export interface ModelCallOptions {
  readonly tools?: readonly { readonly type: string; readonly name: string; readonly inputSchema: Record<string, unknown>; readonly strict?: boolean }[];
  readonly prompt: readonly { readonly role: string; readonly content: unknown }[];
}

/** A model turn: tool calls (`input` as the model's raw JSON text) or a text reply. */
type Turn = { calls: { name: string; input: string; id?: string }[] } | { text: string };

export const call = (name: string, input: unknown, id?: string): { name: string; input: string; id?: string } => ({
  name,
  input: typeof input === 'string' ? input : JSON.stringify(input),
  ...(id !== undefined ? { id } : {}),
});

/** The tool-result parts of the last tool message the model received. */
export function lastToolResults(options: ModelCallOptions): { toolName: string; toolCallId: string; output: { type: string; value: unknown } }[] {
  const tool = [...options.prompt].reverse().find((m) => m.role === 'tool');
  return (tool?.content ?? []) as never;
}

/** A scripted model over the SDK's own mock: each `doGenerate` answers the next turn; `seen` keeps each request. */
export function scriptedModel(sdk: SdkUnderTest, turns: readonly Turn[]): { model: unknown; seen: ModelCallOptions[] } {
  const seen: ModelCallOptions[] = [];
  let next = 0;
  const usage =
    sdk.major >= 6
      ? { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } }
      : { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
  const finish = (reason: string) => (sdk.major >= 6 ? { unified: reason, raw: reason } : reason);
  const contentOf = (turn: Turn): Record<string, unknown>[] =>
    'text' in turn
      ? [{ type: 'text', text: turn.text }]
      : turn.calls.map((c, i) => ({ type: 'tool-call', toolCallId: c.id ?? `call_${next}_${i}`, toolName: c.name, input: c.input }));
  const take = (options: ModelCallOptions): Turn => {
    seen.push(options);
    const turn = turns[next] ?? { text: 'done' };
    next++;
    return turn;
  };
  const doGenerate = async (options: ModelCallOptions) => {
    const turn = take(options);
    return { content: contentOf(turn), finishReason: finish('text' in turn ? 'stop' : 'tool-calls'), usage, warnings: [] };
  };
  const doStream = async (options: ModelCallOptions) => {
    const turn = take(options);
    const parts: Record<string, unknown>[] =
      'text' in turn
        ? [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: turn.text },
            { type: 'text-end', id: 't' },
          ]
        : contentOf(turn);
    parts.push({ type: 'finish', finishReason: finish('text' in turn ? 'stop' : 'tool-calls'), usage });
    return { stream: sdk.readableStream(parts) };
  };
  return { model: sdk.mockModel(doGenerate, doStream), seen };
}

const SECRET = 'sk-live-ai-sdk-4b2a77d0';

class Requester {
  constructor(readonly name: string) {}
}

@ToolService({ group: 'weather' })
class WeatherService {
  @Tool({ name: 'get_weather', description: 'Current weather of a city' })
  getWeather(
    @ToolParam({ name: 'city', description: 'City name', schema: { minLength: 2 } }) city: string,
    @ToolParam({ name: 'days', description: 'Days ahead', type: () => Number, schema: { minimum: 0, maximum: 7 }, required: false }) days: number | undefined,
    @ToolParam({ name: 'apiKey', description: 'Weather API key', preset: true }) apiKey: string,
  ): ToolResult {
    const keyOk = apiKey === SECRET;
    return {
      forLLM: `${city}: 18 °C${days ? ` in ${days} days` : ''}${keyOk ? '' : ' (bad key)'}`,
      forUser: `☁ ${city} 18 °C`,
      silent: false,
      isError: false,
      async: false,
      data: { city, tempC: 18 },
    };
  }
}

@ToolService({ group: 'admin' })
class AdminService {
  ran: string[] = [];

  @Tool({ name: 'delete_user', description: 'Delete a user account' })
  deleteUser(@ToolParam({ name: 'id' }) id: string): string {
    this.ran.push(id);
    return `deleted ${id}`;
  }
}

class SlowService {
  aborted: unknown = 'not aborted';
  started!: () => void;
  readonly running = new Promise<void>((resolve) => (this.started = resolve));

  @Tool({ name: 'import_rows', description: 'Import rows, reporting progress' })
  async importRows(@ToolParam({ name: 'rows' }) rows: number, emitter: ToolEmitter): Promise<string> {
    for (let i = 1; i <= rows; i++) {
      emitter.emit({ progress: i, total: rows, message: `row ${i}` });
      await new Promise((resolve) => setImmediate(resolve));
    }
    return `imported ${rows} rows`;
  }

  @Tool({ name: 'wait_forever', description: 'Waits until aborted' })
  waitForever(signal: AbortSignal): Promise<string> {
    this.started();
    return new Promise((_resolve, reject) =>
      signal.addEventListener('abort', () => {
        this.aborted = signal.reason;
        reject(new Error('stopped'));
      }),
    );
  }

  @Tool({ name: 'who_asks', description: 'Who is asking' })
  whoAsks(requester: Requester): string {
    return `asked by ${requester.name}`;
  }
}

function setup(options: { equip?: boolean } = {}) {
  const toolkit = freshToolkit({ equipToolGroups: options.equip === true });
  toolkit.createToolGroup('weather', 'Weather tools', true);
  toolkit.createToolGroup('admin', 'Administration', false);
  const admin = new AdminService();
  const slow = new SlowService();
  toolkit.registration().tool(new WeatherService()).presetParameters({ get_weather: { apiKey: SECRET } }).apply();
  toolkit.registerTool(admin);
  toolkit.registerTool(slow);
  const events: ToolEvent[] = [];
  toolkit.events$.subscribe((e) => events.push(e));
  return { toolkit, admin, slow, events };
}

const offered = (options: ModelCallOptions | undefined): string[] => (options?.tools ?? []).map((t) => t.name).sort();

/** The run option that carries a run's context to the tools: `experimental_context` in 5 and 6, `toolsContext` in 7. */
export function runContext(sdk: SdkUnderTest, tools: object, context: ToolExecutionContext): Record<string, unknown> {
  return sdk.major === 7 ? { toolsContext: toAiSdkToolsContext(tools, context) } : { experimental_context: context };
}

/** The image part of a content output: `media` in 5, `image-data` in 6, `file` in 7. */
function imagePart(sdk: SdkUnderTest, data: string, mediaType: string): Record<string, unknown> {
  if (sdk.major === 7) return { type: 'file', mediaType, data: { type: 'data', data } };
  return { type: sdk.major === 6 ? 'image-data' : 'media', data, mediaType };
}

export function describeAiSdk(label: string, load: () => SdkUnderTest, describeIt: jest.Describe = describe): void {
  describeIt(`toolwright/ai-sdk with ${label}`, () => {
    let sdk: SdkUnderTest;
    beforeAll(() => {
      sdk = load();
    });

    const generate = (tools: unknown, model: unknown, extra: Record<string, unknown> = {}) =>
      sdk.generateText({ model, tools, prompt: 'help', stopWhen: sdk.stepCountIs(6), ...extra });

    it('runs a decorated @Tool method in a model-driven generateText loop; the model gets forLLM, the application the whole ToolResult', async () => {
      const { toolkit, events } = setup();
      const { model, seen } = scriptedModel(sdk, [{ calls: [call('get_weather', { city: 'Paris' }, 'call_abc')] }, { text: 'It is 18 °C in Paris.' }]);
      const result = await generate(toAiSdkTools(toolkit), model);

      expect(result.text).toBe('It is 18 °C in Paris.');
      expect(lastToolResults(seen[1]!)).toEqual([
        expect.objectContaining({ toolCallId: 'call_abc', toolName: 'get_weather', output: { type: 'text', value: 'Paris: 18 °C' } }),
      ]);
      const output = result.steps[0]!.content.find((p) => p.type === 'tool-result')!.output as ToolResult;
      expect(output).toMatchObject({ forLLM: 'Paris: 18 °C', forUser: '☁ Paris 18 °C', data: { city: 'Paris', tempC: 18 }, isError: false });
      // the SDK's toolCallId is the ToolCall.id
      expect(events.find((e) => e.type === 'call_succeeded')).toMatchObject({ tool: 'get_weather', callId: 'call_abc' });
    });

    it('an invalid call comes back as a tool-error with toolwright’s field-by-field message, and the model repairs it', async () => {
      const { toolkit } = setup();
      const { model, seen } = scriptedModel(sdk, [
        { calls: [call('get_weather', { city: 'P', days: 99 })] },
        { calls: [call('get_weather', { city: 'Paris', days: 2 })] },
        { text: 'ok' },
      ]);
      const result = await generate(toAiSdkTools(toolkit), model);

      const [refused] = lastToolResults(seen[1]!);
      expect(refused!.output.type).toBe('error-text');
      expect(refused!.output.value).toBe(
        "Invalid arguments for tool 'get_weather':\n- 'city': must NOT have fewer than 2 characters (got \"P\")\n- 'days': must be <= 7 (got 99)\nFix these and call the tool again.",
      );
      const error = result.steps[0]!.content.find((p) => p.type === 'tool-error')!.error;
      expect(AiSdkToolError.is(error)).toBe(true);
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENTS', result: { isError: true } });
      expect(lastToolResults(seen[2]!)[0]!.output).toEqual({ type: 'text', value: 'Paris: 18 °C in 2 days' });
    });

    it('keeps a preset parameter out of the inputSchema the model receives, and its value out of every output', async () => {
      const { toolkit, events } = setup();
      const { model, seen } = scriptedModel(sdk, [
        // the model sends the preset's name itself, and non-object arguments
        { calls: [call('get_weather', { city: 'Paris', apiKey: 'model-made-key' }), call('get_weather', { city: 'Rome' })] },
        { text: 'done' },
      ]);
      const result = await generate(toAiSdkTools(toolkit), model);

      const weather = seen[0]!.tools!.find((t) => t.name === 'get_weather')!;
      expect(Object.keys(weather.inputSchema.properties as object)).toEqual(['city', 'days']);
      expect(JSON.stringify(seen[0]!.tools)).not.toContain('apiKey');
      const [withPresetName, plain] = lastToolResults(seen[1]!);
      // toolwright refuses the model's attempt to set a preset (never overrides it)
      expect(withPresetName!.output.type).toBe('error-text');
      expect(String(withPresetName!.output.value)).toContain('apiKey');
      expect(plain!.output).toEqual({ type: 'text', value: 'Rome: 18 °C' }); // the preset's value reached the tool
      const everything = JSON.stringify({ seen, steps: result.steps, events }, (_k, v: unknown) => (v instanceof Error ? { ...v, message: v.message } : v));
      expect(everything).not.toContain(SECRET);
    });

    it('non-object arguments reach toolwright’s parser; malformed JSON is answered by the SDK', async () => {
      const { toolkit, events } = setup();
      const { model, seen } = scriptedModel(sdk, [
        { calls: [call('get_weather', '[1,2]'), call('get_weather', '42'), call('get_weather', 'null'), call('get_weather', '{"city":')] },
        { text: 'done' },
      ]);
      await generate(toAiSdkTools(toolkit), model);

      const answers = lastToolResults(seen[1]!).map((r) => String(r.output.type === 'error-text' ? r.output.value : ''));
      expect(answers).toHaveLength(4);
      // three calls reached toolwright (refused there with its message), the malformed one never did
      expect(answers.filter((text) => text.includes("tool 'get_weather'"))).toHaveLength(3);
      expect(answers.filter((text) => text.includes('JSON parsing failed'))).toHaveLength(1);
      const codes = events.filter((e) => e.type === 'call_failed').map((e) => (e as { error: { code: string } }).error.code);
      expect(codes).toEqual(['MALFORMED_ARGUMENTS', 'MALFORMED_ARGUMENTS', 'MALFORMED_ARGUMENTS']);
    });

    it('a session offers only its own tools; a tool of another session is never run', async () => {
      const { toolkit, admin } = setup();
      const a = toolkit.session('a');
      const b = toolkit.session('b');
      b.updateToolGroups(['admin'], true);
      const first = scriptedModel(sdk, [{ calls: [call('delete_user', { id: 'u1' })] }, { text: 'done' }]);
      const second = scriptedModel(sdk, [{ text: 'done' }]);
      await generate(toAiSdkTools(a), first.model);
      await generate(toAiSdkTools(b), second.model);

      expect(offered(first.seen[0])).toEqual(['get_weather', 'import_rows', 'wait_forever', 'who_asks']);
      expect(offered(second.seen[0])).toEqual(['delete_user', 'get_weather', 'import_rows', 'wait_forever', 'who_asks']);
      // session a was never offered delete_user: the SDK answers the unknown name itself
      const [answer] = lastToolResults(first.seen[1]!);
      expect(answer!.output.type).toBe('error-text');
      expect(String(answer!.output.value)).toContain('delete_user');
      expect(admin.ran).toEqual([]);
    });

    it('follows the view: a group equipped in step 1 is offered in step 2 and its tool runs', async () => {
      const { toolkit, admin } = setup({ equip: true });
      const session = toolkit.session('s');
      const { model, seen } = scriptedModel(sdk, [
        { calls: [call('equip_tool_groups', { add: ['admin'] })] },
        { calls: [call('delete_user', { id: 'u7' })] },
        { text: 'deleted' },
      ]);
      await generate(toAiSdkTools(session), model);

      expect(offered(seen[0])).not.toContain('delete_user');
      expect(offered(seen[1])).toContain('delete_user');
      expect(lastToolResults(seen[2]!)[0]!.output).toEqual({ type: 'text', value: 'deleted u7' });
      expect(admin.ran).toEqual(['u7']);
    });

    it('follows the view: a skill invoked in step 1 scopes step 2 to its tools', async () => {
      const { toolkit } = setup();
      toolkit.registerSkill(defineSkill({ name: 'ops', description: 'Account operations', tools: ['delete_user'], grantGroups: ['admin'] }));
      const session = toolkit.session('s');
      const { model, seen } = scriptedModel(sdk, [
        { calls: [call('invoke_skill', { name: 'ops' })] },
        { calls: [call('delete_user', { id: 'u8' })] },
        { text: 'deleted' },
      ]);
      await generate(toAiSdkTools(session), model);

      expect(offered(seen[0])).toContain('invoke_skill');
      expect(offered(seen[0])).not.toContain('delete_user');
      expect(offered(seen[1])).toContain('delete_user');
      expect(offered(seen[1])).not.toContain('get_weather');
      expect(lastToolResults(seen[2]!)[0]!.output).toEqual({ type: 'text', value: 'deleted u8' });
    });

    it('refuses a tool that was offered in an earlier step but is disabled now, with toolwright’s reason', async () => {
      const { toolkit, admin, events } = setup({ equip: true });
      const session = toolkit.session('s');
      session.updateToolGroups(['admin'], true);
      const { model, seen } = scriptedModel(sdk, [
        { calls: [call('equip_tool_groups', { remove: ['admin'] })] },
        // the model calls what it was offered in step 1
        { calls: [call('delete_user', { id: 'u9' })] },
        { text: 'done' },
      ]);
      await generate(toAiSdkTools(session), model);

      expect(offered(seen[0])).toContain('delete_user');
      expect(offered(seen[1])).not.toContain('delete_user');
      const [answer] = lastToolResults(seen[2]!);
      expect(answer!.output.type).toBe('error-text');
      expect(String(answer!.output.value)).toContain('delete_user');
      expect(events.find((e) => e.type === 'call_failed')).toMatchObject({ tool: 'delete_user', error: { code: 'TOOL_DISABLED' } });
      expect(admin.ran).toEqual([]);
    });

    it('passes the SDK’s abortSignal to the tool', async () => {
      const { toolkit, slow } = setup();
      const controller = new AbortController();
      const { model } = scriptedModel(sdk, [{ calls: [call('wait_forever', {})] }, { text: 'done' }]);
      void slow.running.then(() => controller.abort(new Error('user left')));
      await generate(toAiSdkTools(toolkit), model, { abortSignal: controller.signal }).catch(() => undefined);
      expect(slow.aborted).toEqual(new Error('user left'));
    });

    it('uses options.context and the run’s context (experimental_context; toolsContext in 7) as the call context', async () => {
      const { toolkit } = setup();
      const first = scriptedModel(sdk, [{ calls: [call('who_asks', {})] }, { text: 'done' }]);
      await generate(toAiSdkTools(toolkit, { context: ToolExecutionContext.of(new Requester('Ada')) }), first.model);
      expect(lastToolResults(first.seen[1]!)[0]!.output).toEqual({ type: 'text', value: 'asked by Ada' });

      const second = scriptedModel(sdk, [{ calls: [call('who_asks', {})] }, { text: 'done' }]);
      const tools = toAiSdkTools(toolkit, { context: ToolExecutionContext.of(new Requester('Ada')) });
      await generate(tools, second.model, runContext(sdk, tools, ToolExecutionContext.of(new Requester('Grace'))));
      expect(lastToolResults(second.seen[1]!)[0]!.output).toEqual({ type: 'text', value: 'asked by Grace' });
    });

    it('streams progress reports as preliminary tool results in streamText; the model gets forLLM only', async () => {
      const { toolkit } = setup();
      const { model, seen } = scriptedModel(sdk, [{ calls: [call('import_rows', { rows: 3 })] }, { text: 'imported' }]);
      const stream = sdk.streamText({ model, tools: toAiSdkTools(toolkit), prompt: 'import', stopWhen: sdk.stepCountIs(3) });
      const parts: StreamPart[] = [];
      for await (const part of stream.fullStream) if (part.type === 'tool-result') parts.push(part);

      const progress = parts.filter((p) => p.preliminary === true && isAiSdkToolProgress(p.output)).map((p) => p.output);
      expect(progress).toEqual([1, 2, 3].map((i) => ({ type: 'tool-progress', progress: i, total: 3, message: `row ${i}` })));
      const final = parts.filter((p) => p.preliminary !== true);
      expect(final).toHaveLength(1);
      expect(final[0]!.output).toMatchObject({ forLLM: 'imported 3 rows', isError: false });
      expect(lastToolResults(seen[1]!)[0]!.output).toEqual({ type: 'text', value: 'imported 3 rows' });
    });

    it('with preliminaryResults: false, execute is a plain Promise of the ToolResult', async () => {
      const { toolkit } = setup();
      const tools = toAiSdkTools(toolkit, { preliminaryResults: false });
      const returned = tools.get_weather!.execute!({ city: 'Oslo' }, { toolCallId: 'x', messages: [] });
      expect(returned).toBeInstanceOf(Promise);
      await expect(returned).resolves.toMatchObject({ forLLM: 'Oslo: 18 °C' });
    });

    it('strict: the OpenAI strict schema and strict flag go to the model; null optionals are restored; unlowerable tools are skipped and reported', async () => {
      const { toolkit } = setup();
      toolkit.registerTool(TAG_MAP);
      const skipped: string[] = [];
      const reports: string[] = [];
      const tools = toAiSdkTools(toolkit, {
        strict: true,
        onToolSkipped: ({ name }) => skipped.push(name),
        onLoweringReport: (report) => reports.push(...report.map((r) => `${r.tool}:${r.path}`)),
      });
      const { model, seen } = scriptedModel(sdk, [{ calls: [call('get_weather', { city: 'Oslo', days: null })] }, { text: 'done' }]);
      await generate(tools, model);

      expect(skipped).toEqual(['tag_map']);
      expect(offered(seen[0])).not.toContain('tag_map');
      const weather = seen[0]!.tools!.find((t) => t.name === 'get_weather')!;
      expect(weather.inputSchema).toMatchObject({ additionalProperties: false, required: ['city', 'days'] });
      if (sdk.major >= 6) expect(weather.strict).toBe(true);
      expect(reports).toContain('get_weather:days');
      expect(reports).toContain('tag_map:'); // the omission, in the same report as every other change
      expect(lastToolResults(seen[1]!)[0]!.output).toEqual({ type: 'text', value: 'Oslo: 18 °C' });
    });

    it('without onToolSkipped or onLoweringReport, a skipped tool gets one TOOLWRIGHT_TOOL_SKIPPED process warning naming it and why', () => {
      const { toolkit } = setup();
      toolkit.registerTool(TAG_MAP);
      const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const tools = toAiSdkTools(toolkit, { strict: true });
        expect(Object.keys(tools)).toContain('get_weather');
        expect(Object.keys(tools)).not.toContain('tag_map');
        expect(tools.tag_map).toBeUndefined();
        const skipped = spy.mock.calls.filter(([, options]) => (options as { code?: string } | undefined)?.code === 'TOOLWRIGHT_TOOL_SKIPPED');
        expect(skipped).toHaveLength(1);
        expect(String(skipped[0]![0])).toMatch(/^toolwright\/ai-sdk left tool 'tag_map' out of the AI SDK tool set: Tool "tag_map" cannot be sent to OpenAI in strict mode: the schema at "tags" is a map/);
      } finally {
        spy.mockRestore();
      }
    });

    it('a rich result: the model gets forLLM then the images meant for it as content output; user-only parts stay with the application', async () => {
      const { toolkit } = setup();
      toolkit.registerTool({
        name: 'chart',
        description: 'Draw the chart',
        parameters: { type: 'object', properties: {} },
        execute: () =>
          contentResult(['Revenue:', imageContent(RED_PIXEL_PNG, 'image/png'), imageContent(RED_PIXEL_PNG, 'image/png', { audience: ['user'] })]),
      });
      const { model, seen } = scriptedModel(sdk, [{ calls: [call('chart', {})] }, { text: 'A red square.' }]);
      const result = await generate(toAiSdkTools(toolkit), model);
      expect(lastToolResults(seen[1]!)[0]!.output).toEqual({
        type: 'content',
        value: [{ type: 'text', text: 'Revenue:\n[image: image/png, 70 bytes]' }, imagePart(sdk, RED_PIXEL_PNG, 'image/png')],
      });
      const output = result.steps[0]!.content.find((p) => p.type === 'tool-result')!.output as ToolResult;
      expect(output.content).toHaveLength(3);
    });

    it('hands the SDK unfrozen schema copies and a read-only, live set', () => {
      const { toolkit } = setup();
      const tools = toAiSdkTools(toolkit, { provider: 'anthropic' });
      const schema = (tools.get_weather!.inputSchema as unknown as { jsonSchema: Record<string, unknown> }).jsonSchema;
      expect(Object.isFrozen(schema)).toBe(false);
      expect(Object.isFrozen(schema.properties)).toBe(false);
      expect(() => {
        (tools as Record<string, unknown>).evil = {};
      }).toThrow(TypeError);
      expect(Object.keys(tools)).not.toContain('delete_user');
      toolkit.updateToolGroups(['admin'], true);
      expect(Object.keys(tools)).toContain('delete_user');
      expect({ ...tools }).toHaveProperty('delete_user');
      expect('toString' in tools).toBe(false);
    });
  });
}
