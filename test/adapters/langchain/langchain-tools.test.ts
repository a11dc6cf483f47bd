import 'reflect-metadata';
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage, type ToolCall as LangChainToolCall } from '@langchain/core/messages';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { isStructuredTool, tool as langChainTool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { Container } from 'inversify';
import { Tool, ToolExecutionContext, Toolkit, ToolParam, ToolService, type ToolResult, type ToolView } from '../../../src';
import { followLangChainTools, toLangChainTools, TOOLWRIGHT_CONTEXT_KEY } from '../../../src/adapters/langchain';
import { recordEvents } from '../../support/events';
import { findLeaks } from '../../support/leaks';

const SECRET = 'sk-live-7d3c9b1a5e2f4d6c';

class User {
  constructor(readonly id: string) {}
}

@ToolService({ group: 'weather' })
class Weather {
  readonly seen: { city: string; days: number; key: boolean; user: string }[] = [];

  @Tool({ description: 'The forecast for a city' })
  forecast(
    @ToolParam({ name: 'city', description: 'City name, capitalised', schema: { pattern: '^[A-Z]' } }) city: string,
    @ToolParam({ name: 'days', description: 'Days ahead', integer: true, schema: { minimum: 1, maximum: 14 } }) days: number,
    @ToolParam({ name: 'apiKey', preset: true }) apiKey: string,
    user: User,
  ): string {
    this.seen.push({ city, days, key: apiKey === SECRET, user: user.id });
    return `${days} day(s) of sun in ${city} for ${user.id}`;
  }
}

@ToolService({ group: 'admin' })
class Admin {
  @Tool({ description: 'Delete every record' })
  wipe(): string {
    return 'wiped';
  }
}

function makeToolkit(): { toolkit: Toolkit; weather: Weather } {
  const toolkit = new Toolkit({ container: new Container(), context: ToolExecutionContext.of(new User('toolkit-user')) });
  toolkit.createToolGroup('weather', 'Weather tools', true);
  toolkit.createToolGroup('admin', 'Admin tools', false);
  const weather = new Weather();
  toolkit.registration().tool(weather).presetParameters({ forecast: { apiKey: SECRET } }).apply();
  toolkit.registerTool(new Admin());
  return { toolkit, weather };
}

const call = (name: string, args: unknown, id = `call_${name}_${Math.random().toString(36).slice(2)}`): LangChainToolCall =>
  ({ id, name, args, type: 'tool_call' }) as LangChainToolCall;

/**
 * A model-driven loop as a LangChain user writes it: each step binds the tools active now to
 * LangChain's own fake chat model (scripted with that step's tool calls), runs the calls it
 * returns through the tools of that name, and appends the `ToolMessage`s.
 */
async function runLoop(view: ToolView, script: readonly (readonly LangChainToolCall[])[]): Promise<{ messages: BaseMessage[]; bound: unknown[] }> {
  const current = followLangChainTools(view);
  const messages: BaseMessage[] = [new HumanMessage('What is the weather?')];
  const bound: unknown[] = [];
  for (const calls of script) {
    const tools = current();
    const model = new FakeStreamingChatModel({ chunks: [new AIMessageChunk({ content: '', tool_calls: [...calls] })] }).bindTools(tools);
    bound.push((model as unknown as { config: { tools: unknown } }).config.tools);
    const ai = (await model.invoke(messages)) as AIMessage;
    messages.push(ai);
    for (const toolCall of ai.tool_calls ?? []) {
      const target = tools.find((t) => t.name === toolCall.name);
      messages.push(target ? await target.invoke(toolCall) : new ToolMessage({ content: `no tool ${toolCall.name}`, tool_call_id: toolCall.id ?? '', status: 'error' }));
    }
  }
  return { messages, bound };
}

const toolMessages = (messages: readonly BaseMessage[]): ToolMessage[] => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

describe('toLangChainTools: toolwright tools as @langchain/core structured tools', () => {
  it('a model-driven loop runs a decorated method; an invalid call gets toolwright’s message and is repaired', async () => {
    const { toolkit, weather } = makeToolkit();
    const { messages } = await runLoop(toolkit, [
      [call('forecast', { city: 'paris', days: 40 }, 'call_bad')],
      [call('forecast', { city: 'Paris', days: 3 }, 'call_good')],
    ]);
    const [bad, good] = toolMessages(messages);
    expect(bad.tool_call_id).toBe('call_bad');
    expect(bad.status).toBe('error');
    expect(bad.content).toContain('city');
    expect(bad.content).toContain('days');
    expect((bad.artifact as ToolResult).error?.code).toBe('INVALID_ARGUMENTS');
    expect((bad.artifact as ToolResult).toolCallId).toBe('call_bad');
    expect(good.tool_call_id).toBe('call_good');
    expect(good.status).toBe('success');
    expect(good.name).toBe('forecast');
    expect(good.content).toBe('3 day(s) of sun in Paris for toolkit-user');
    expect(good.artifact).toMatchObject({ isError: false, forLLM: good.content, toolCallId: 'call_good', name: 'forecast' });
    expect(weather.seen).toEqual([{ city: 'Paris', days: 3, key: true, user: 'toolkit-user' }]);
  });

  it('are LangChain structured tools whose definitions carry the lowered schema without presets', () => {
    const { toolkit } = makeToolkit();
    const [forecast] = toLangChainTools(toolkit);
    expect(isStructuredTool(forecast)).toBe(true);
    const definition = convertToOpenAITool(forecast);
    expect(definition).toEqual({ type: 'function', function: toolkit.toProviderDefs('openai')[0].function });
    expect(Object.keys((definition.function.parameters as { properties: object }).properties)).toEqual(['city', 'days']);
    expect(Object.isFrozen(forecast.schema)).toBe(false);
    expect(JSON.stringify(forecast)).not.toContain(SECRET);
  });

  it('a preset stays out of the schemas LangChain sends and out of every message and artifact', async () => {
    const { toolkit } = makeToolkit();
    const recorder = recordEvents(toolkit);
    const { messages, bound } = await runLoop(toolkit, [
      [call('forecast', { city: 'Paris', days: 1, apiKey: 'model-made-up' }), call('forecast', { city: `Key ${SECRET}`, days: 2 })],
      [call('forecast', { city: 'Oslo', days: 2 })],
    ]);
    recorder.stop();
    expect(JSON.stringify(bound)).not.toContain('apiKey');
    const [withPresetName, echo, ok] = toolMessages(messages);
    expect(withPresetName.status).toBe('error');
    expect(withPresetName.content).toContain('apiKey');
    expect(echo.status).toBe('success');
    expect(ok.status).toBe('success');
    expect(echo.content).toContain('[REDACTED]');
    // the model's own messages hold what it sent; what comes back to it and to the app holds no secret
    expect(findLeaks({ messages: toolMessages(messages).map((m) => m.toDict()), artifacts: toolMessages(messages).map((m) => m.artifact), events: recorder.events }, [SECRET])).toEqual([]);
  });

  it('invoked with plain arguments (no ToolCall) returns the text, as LangChain tools do', async () => {
    const { toolkit } = makeToolkit();
    const [forecast] = toLangChainTools(toolkit);
    await expect(forecast.invoke({ city: 'Rome', days: 2 })).resolves.toBe('2 day(s) of sun in Rome for toolkit-user');
    const invalid = await forecast.invoke({ city: 'rome' });
    expect(typeof invalid).toBe('string');
    expect(invalid).toContain('city');
    // a ToolCall id given through the config (as LangGraph's ToolNode may) still makes a ToolMessage
    const viaConfig = await forecast.invoke({ city: 'Rome', days: 2 }, { toolCall: call('forecast', {}, 'call_cfg') });
    expect(viaConfig).toBeInstanceOf(ToolMessage);
    expect((viaConfig as ToolMessage).tool_call_id).toBe('call_cfg');
  });

  it('arguments LangChain’s own validator rejects reach toolwright’s validation instead', async () => {
    const { toolkit } = makeToolkit();
    const [forecast] = toLangChainTools(toolkit);
    const twin = langChainTool(() => 'never', { name: 'forecast', description: 'twin', schema: forecast.schema });
    const wrong = call('forecast', { city: 42 }, 'call_wrong');
    await expect(twin.invoke(wrong)).rejects.toThrow('did not match expected schema');
    const message = await forecast.invoke(wrong);
    expect(message.status).toBe('error');
    expect(message.tool_call_id).toBe('call_wrong');
    expect((message.artifact as ToolResult).error?.code).toBe('INVALID_ARGUMENTS');
    expect(message.content).toMatch(/city/);
  });

  it('non-object arguments are answered by toolwright, never thrown', async () => {
    const { toolkit } = makeToolkit();
    const [forecast] = toLangChainTools(toolkit);
    for (const args of [[1, 2], 'not json', 7, null, undefined]) {
      const message = await forecast.invoke(call('forecast', args, 'call_odd'));
      expect(message).toBeInstanceOf(ToolMessage);
      expect(message.status).toBe('error');
      expect(['INVALID_ARGUMENTS', 'MALFORMED_ARGUMENTS', 'INVALID_JSON']).toContain((message.artifact as ToolResult).error?.code);
    }
  });

  it('a session offers only its own tools, and a disabled tool refuses through toolwright', async () => {
    const { toolkit } = makeToolkit();
    const admin = toolkit.session('admin');
    admin.updateToolGroups(['admin'], true);
    const guest = toolkit.session('guest');
    expect(toLangChainTools(admin).map((t) => t.name)).toEqual(['forecast', 'wipe']);
    expect(toLangChainTools(guest).map((t) => t.name)).toEqual(['forecast']);
    // the model names the admin tool in the guest's loop: there is no such tool to run
    const { messages, bound } = await runLoop(guest, [[call('wipe', {}, 'call_wipe')]]);
    expect(JSON.stringify(bound)).not.toContain('wipe');
    expect(toolMessages(messages)[0].status).toBe('error');
    // the admin's tool object, kept after the admin lost the group, refuses with toolwright's code
    const [, wipe] = toLangChainTools(admin);
    admin.updateToolGroups(['admin'], false);
    const refused = await wipe.invoke(call('wipe', {}, 'call_late'));
    expect(refused.status).toBe('error');
    expect((refused.artifact as ToolResult).error?.code).toBe('TOOL_DISABLED');
  });

  it('a ToolCall names only the tool it is given to: its `name` does not redirect the call', async () => {
    const { toolkit } = makeToolkit();
    const guest = toolkit.session('guest');
    const [forecast] = toLangChainTools(guest);
    const message = await forecast.invoke(call('wipe', { city: 'Paris', days: 1 }, 'call_swap'));
    expect(message.name).toBe('forecast');
    expect(message.content).toBe('1 day(s) of sun in Paris for toolkit-user');
  });

  it('follows the view: a group equipped during a run is offered on the next step', async () => {
    const toolkit = new Toolkit({ container: new Container(), context: ToolExecutionContext.of(new User('u')) });
    toolkit.createToolGroup('admin', 'Admin tools', false);
    toolkit.registerTool(new Admin());
    toolkit.enableEquipToolGroups({ groups: ['admin'] });
    const session = toolkit.session('s1');
    const current = followLangChainTools(session);
    const first = current();
    expect(first.map((t) => t.name)).toEqual(['equip_tool_groups']);
    expect(current()).not.toBe(first);
    expect(current()[0]).toBe(first[0]);
    const { messages, bound } = await runLoop(session, [[call('equip_tool_groups', { add: ['admin'] }, 'call_equip')], [call('wipe', {}, 'call_wipe')]]);
    expect(JSON.stringify(bound[0])).not.toContain('"wipe"');
    expect(JSON.stringify(bound[1])).toContain('"wipe"');
    const [equip, wipe] = toolMessages(messages);
    expect(equip.status).toBe('success');
    expect(wipe).toMatchObject({ status: 'success', content: 'wiped', tool_call_id: 'call_wipe' });
    expect(current().find((t) => t.name === 'equip_tool_groups')).toBe(first[0]);
    // another session of the same toolkit was not touched
    expect(toLangChainTools(toolkit.session('s2')).map((t) => t.name)).toEqual(['equip_tool_groups']);
  });

  it('the run’s configurable context and options.context reach the method; the signal aborts the call', async () => {
    const { toolkit } = makeToolkit();
    const [forecast] = toLangChainTools(toolkit, { context: ToolExecutionContext.of(new User('option-user')) });
    const fromOptions = await forecast.invoke(call('forecast', { city: 'Oslo', days: 1 }));
    expect(fromOptions.content).toBe('1 day(s) of sun in Oslo for option-user');
    const fromRun = await forecast.invoke(call('forecast', { city: 'Oslo', days: 1 }), {
      configurable: { [TOOLWRIGHT_CONTEXT_KEY]: ToolExecutionContext.of(new User('run-user')) },
    });
    expect(fromRun.content).toBe('1 day(s) of sun in Oslo for run-user');
    // something else under the key is ignored
    const notAContext = await forecast.invoke(call('forecast', { city: 'Oslo', days: 1 }), { configurable: { [TOOLWRIGHT_CONTEXT_KEY]: { id: 'forged' } } });
    expect(notAContext.content).toBe('1 day(s) of sun in Oslo for option-user');

    const slow = new Toolkit({ container: new Container() });
    let sawAbort = false;
    slow.registerTool({
      name: 'slow',
      description: 'Waits until aborted',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve('stopped');
          });
        }),
    });
    const controller = new AbortController();
    const [slowTool] = toLangChainTools(slow);
    const pending = slowTool.invoke(call('slow', {}, 'call_slow'), { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const aborted = await pending;
    expect(sawAbort).toBe(true);
    expect(aborted.status).toBe('error');
    expect(aborted.tool_call_id).toBe('call_slow');
  });

  it('LangChain callbacks see the tool run start and end with toolwright’s ToolMessage', async () => {
    const { toolkit } = makeToolkit();
    const [forecast] = toLangChainTools(toolkit);
    const seen: string[] = [];
    class Recorder extends BaseCallbackHandler {
      name = 'recorder';
      override handleToolStart(_tool: unknown, input: string, _runId: string, _parent?: string, _tags?: string[], _meta?: unknown, runName?: string, toolCallId?: string): void {
        seen.push(`start ${runName} ${toolCallId} ${input}`);
      }
      override handleToolEnd(output: unknown): void {
        seen.push(`end ${(output as ToolMessage).status}`);
      }
    }
    await forecast.invoke(call('forecast', { city: 'x' }, 'call_cb'), { callbacks: [new Recorder()] });
    expect(seen).toEqual(['start forecast call_cb {"city":"x"}', 'end error']);
  });

  it('an error thrown under the adapter (a view breaking its promise never to reject) goes to handleToolError and is rethrown to LangChain', async () => {
    const { toolkit, weather } = makeToolkit();
    const view = toolkit.session('s-broken');
    const [forecast] = toLangChainTools(view);
    jest.spyOn(view, 'callTool').mockRejectedValue(new Error('the view broke'));
    const seen: string[] = [];
    class Recorder extends BaseCallbackHandler {
      name = 'recorder';
      override handleToolError(error: unknown): void {
        seen.push(`error ${(error as Error).message}`);
      }
      override handleToolEnd(): void {
        seen.push('end');
      }
    }
    await expect(forecast.invoke(call('forecast', { city: 'Oslo', days: 2 }, 'call_broken'), { callbacks: [new Recorder()] })).rejects.toThrow('the view broke');
    expect(seen).toEqual(['error the view broke']);
    expect(weather.seen).toEqual([]);
  });

  it('tool progress reaches LangChain callbacks as tool events', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool({
      name: 'index',
      description: 'Indexes',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) => {
        ctx.emit({ message: 'half way', progress: 1, total: 2 });
        return 'indexed';
      },
    });
    const [index] = toLangChainTools(toolkit);
    const events: unknown[] = [];
    const message = await index.invoke(call('index', {}, 'call_p'), { callbacks: [{ handleToolEvent: (chunk: unknown) => void events.push(chunk) }] });
    expect(message.content).toBe('indexed');
    expect(events).toEqual([expect.objectContaining({ message: 'half way', progress: 1, total: 2, callId: 'call_p', tool: 'index' })]);
  });
});
