import 'reflect-metadata';
import { Agent, ModelBehaviorError, Runner, setTracingDisabled, type ModelRequest, type NonStreamRunOptions } from '@openai/agents';
import { contentResult, imageContent, Tool, ToolExecutionContext, ToolParam, ToolService, type AgentTool, type Toolkit } from '../../../src';
import { RED_PIXEL_PNG } from '../../support/content';
import { toOpenAIAgentsTools } from '../../../src/adapters/openai-agents';
import { recordEvents } from '../../support/events';
import { expectAllSchemasMetaValid, newToolkit } from '../../support/toolkit';
import { offered, outputs, ScriptedAgentsModel, type Turn } from './scripted-model';

// no network: traces are never exported, and the model is scripted
setTracingDisabled(true);
afterAll(() => expectAllSchemasMetaValid());

class UserContext {
  constructor(readonly userId: string) {}
}

const SECRET = 'sk-preset-5e1f0c77';

@ToolService()
class WeatherService {
  @Tool({ description: 'Get the weather forecast' })
  getWeather(
    @ToolParam({ name: 'city', schema: { type: 'string', description: 'City name', minLength: 2 } }) city: string,
    user: UserContext,
    @ToolParam({ name: 'days', required: false, schema: { type: 'integer', minimum: 1, maximum: 14 } }) days?: number,
  ): string {
    return `sunny in ${city} for ${days ?? 1} day(s), asked by ${user.userId}`;
  }
}

@ToolService({ group: 'admin' })
class AdminService {
  ran: string[] = [];

  @Tool({ description: 'Delete a user' })
  deleteUser(@ToolParam({ name: 'id' }) id: string): string {
    this.ran.push(id);
    return `deleted ${id}`;
  }
}

const billing: AgentTool = {
  name: 'charge',
  description: 'Charge a customer',
  parameters: {
    type: 'object',
    properties: { customer: { type: 'string' }, apiKey: { type: 'string' } },
    required: ['customer', 'apiKey'],
    additionalProperties: false,
  },
  execute: (args) => `charged ${String(args.customer)} ${args.apiKey === SECRET ? 'with the service key' : 'with ANOTHER key'}`,
};

function setup(): { toolkit: Toolkit; admin: AdminService } {
  const toolkit = newToolkit();
  toolkit.createToolGroup('admin', 'Administration', false);
  const admin = new AdminService();
  toolkit.registerTool(WeatherService);
  toolkit.registerTool(admin);
  toolkit.registration().tool(billing).presetParameters({ charge: { apiKey: SECRET } }).apply();
  return { toolkit, admin };
}

const call = (name: string, args: unknown, callId?: string): Turn => ({
  calls: [{ name, arguments: typeof args === 'string' ? args : JSON.stringify(args), ...(callId === undefined ? {} : { callId }) }],
});
const say = (text: string): Turn => ({ text });
const lastOutput = (request: ModelRequest): string => [...outputs(request).values()].at(-1) ?? '';

async function runWith(tools: Agent['tools'], respond: (request: ModelRequest, turn: number) => Turn, options: NonStreamRunOptions<unknown> = {}) {
  const model = new ScriptedAgentsModel(respond);
  const agent = new Agent({ name: 'tester', model, tools });
  const result = await new Runner({ tracingDisabled: true }).run(agent, 'go', { maxTurns: 6, ...options });
  return { model, result };
}

describe('toOpenAIAgentsTools with the Agents SDK Runner', () => {
  it('runs a decorated @Tool method in a model-driven run, with the call id and the run context', async () => {
    const { toolkit } = setup();
    const events = recordEvents(toolkit);
    const { model, result } = await runWith(
      toOpenAIAgentsTools(toolkit),
      (request, turn) => (turn === 1 ? call('get_weather', { city: 'Paris', days: null }, 'call_w1') : say(`done: ${lastOutput(request)}`)),
      { context: ToolExecutionContext.of(new UserContext('u-42')) },
    );
    expect(result.finalOutput).toBe('done: sunny in Paris for 1 day(s), asked by u-42');
    // the strict form: optionals required-and-nullable; the context parameter is not in the schema
    const weather = offered(model.requests[0]).get('get_weather');
    expect(weather?.strict).toBe(true);
    expect(weather?.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, days: { type: ['integer', 'null'] } },
      required: ['city', 'days'],
      additionalProperties: false,
    });
    expect(events.of('call_started').map((e) => e.callId)).toEqual(['call_w1']);
  });

  it('uses options.context for every call, and a run context that is not a ToolExecutionContext is ignored', async () => {
    const { toolkit } = setup();
    const tools = toOpenAIAgentsTools(toolkit, { context: ToolExecutionContext.of(new UserContext('from-options')) });
    const { result } = await runWith(tools, (request, turn) => (turn === 1 ? call('get_weather', { city: 'Rome', days: 2 }) : say(lastOutput(request))), {
      context: { userId: 'plain object' },
    });
    expect(result.finalOutput).toBe('sunny in Rome for 2 day(s), asked by from-options');
  });

  it("answers an invalid call with toolwright's field-by-field message, and the model repairs it", async () => {
    const { toolkit } = setup();
    const { model, result } = await runWith(toOpenAIAgentsTools(toolkit), (request, turn) => {
      if (turn === 1) return call('get_weather', { city: 'P', days: 99 });
      const message = lastOutput(request);
      if (turn === 2) return message.startsWith("Invalid arguments for tool 'get_weather'") ? call('get_weather', { city: 'Paris', days: 3 }) : say(`unexpected: ${message}`);
      return say(message);
    }, { context: ToolExecutionContext.of(new UserContext('u')) });
    const invalid = lastOutput(model.requests[1]);
    expect(invalid).toContain("'city'");
    expect(invalid).toContain("'days'");
    expect(invalid).toContain('Fix these and call the tool again.');
    expect(result.finalOutput).toBe('sunny in Paris for 3 day(s), asked by u');
  });

  it('keeps a preset out of the schema the model receives and its value out of every output, even when the model sends the name', async () => {
    const { toolkit } = setup();
    const events = recordEvents(toolkit);
    const { model, result } = await runWith(toOpenAIAgentsTools(toolkit), (request, turn) => {
      if (turn === 1) return call('charge', { customer: 'c-1' });
      if (turn === 2) return call('charge', { customer: 'c-2', apiKey: 'attacker-key' });
      return say(lastOutput(request));
    });
    const schema = offered(model.requests[0]).get('charge');
    expect(schema?.parameters).toEqual({ type: 'object', properties: { customer: { type: 'string' } }, required: ['customer'], additionalProperties: false });
    expect(lastOutput(model.requests[1])).toBe('charged c-1 with the service key');
    // the model cannot set or override the preset
    expect(lastOutput(model.requests[2])).toBe("Invalid arguments for tool 'charge':\n- 'apiKey': is not a parameter of this tool (remove it)\nFix these and call the tool again.");
    const everything = JSON.stringify([model.requests, result.history, result.newItems, result.finalOutput, events.events]);
    expect(everything).not.toContain(SECRET);
  });

  it('offers a session only its own tools; another session cannot reach them', async () => {
    const { toolkit, admin } = setup();
    const a = toolkit.session('a');
    const b = toolkit.session('b');
    a.updateToolGroups(['admin'], true);
    const { model: modelA } = await runWith(toOpenAIAgentsTools(a), (_r, turn) => (turn === 1 ? call('delete_user', { id: 'x1' }) : say('ok')));
    expect([...offered(modelA.requests[0]).keys()]).toEqual(['get_weather', 'delete_user', 'charge']);
    expect(admin.ran).toEqual(['x1']);
    // session b: the tool is never offered, and a call of it never reaches toolwright
    const events = recordEvents(toolkit);
    const attempt = runWith(toOpenAIAgentsTools(b), (_r, turn) => (turn === 1 ? call('delete_user', { id: 'x2' }) : say('ok')));
    await expect(attempt).rejects.toThrow(ModelBehaviorError);
    await expect(attempt).rejects.toThrow('Tool delete_user not found in agent tester.');
    const { model: modelB, result } = await runWith(
      toOpenAIAgentsTools(b),
      (request, turn) => (turn === 1 ? call('delete_user', { id: 'x3' }) : say(lastOutput(request))),
      { toolNotFoundBehavior: 'return_error_to_model' },
    );
    expect([...offered(modelB.requests[0]).keys()]).toEqual(['get_weather', 'charge']);
    expect(result.finalOutput).toContain('delete_user');
    expect(admin.ran).toEqual(['x1']);
    expect(events.of('call_started')).toEqual([]);
  });

  it('follows the view: a group equipped on one turn is offered on the next, and the model calls its tool', async () => {
    const { toolkit, admin } = setup();
    toolkit.enableEquipToolGroups();
    const session = toolkit.session('s');
    let deleted = '';
    const { model, result } = await runWith(toOpenAIAgentsTools(session), (request, turn) => {
      if (turn === 1) return call('equip_tool_groups', { add: ['admin'], remove: [] });
      if (turn === 2) return offered(request).has('delete_user') ? call('delete_user', { id: 'u-7' }) : say('not offered');
      if (turn === 3) {
        deleted = lastOutput(request);
        return call('equip_tool_groups', { add: [], remove: ['admin'] });
      }
      return say(offered(request).has('delete_user') ? 'still offered' : deleted);
    });
    expect(offered(model.requests[0]).has('delete_user')).toBe(false);
    expect(offered(model.requests[1]).has('delete_user')).toBe(true);
    expect(admin.ran).toEqual(['u-7']);
    expect(result.finalOutput).toBe('deleted u-7');
    // the toolkit's own view never changed
    expect(toolkit.getActiveGroups()).toEqual([]);
  });

  it('refuses, with the reason, a call of a tool that was offered but disabled before it ran', async () => {
    const { toolkit, admin } = setup();
    const session = toolkit.session('s');
    session.updateToolGroups(['admin'], true);
    const { model, result } = await runWith(toOpenAIAgentsTools(session), (request, turn) => {
      if (turn === 1) {
        session.updateToolGroups(['admin'], false); // after the tools were sent, before the call runs
        return call('delete_user', { id: 'late' });
      }
      return say(lastOutput(request));
    });
    expect(offered(model.requests[0]).has('delete_user')).toBe(true);
    expect(admin.ran).toEqual([]);
    expect(result.finalOutput).toBe("Tool 'delete_user' is disabled: its group 'admin' is not active.");
  });

  it.each([
    ['an array', '[1, 2]'],
    ['a number', '42'],
    ['null', 'null'],
    ['a string', '"Paris"'],
  ])("answers arguments that are %s with toolwright's message, not an approval interruption", async (_what, args) => {
    const { toolkit } = setup();
    const events = recordEvents(toolkit);
    const { result } = await runWith(toOpenAIAgentsTools(toolkit), (request, turn) => (turn === 1 ? call('get_weather', args) : say(lastOutput(request))));
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toMatch(/^Arguments for tool 'get_weather' must be a JSON object, got /);
    expect(events.of('call_failed').map((e) => e.error.code)).toEqual([expect.stringMatching(/^(INVALID|MALFORMED)_ARGUMENTS$/)]);
  });

  it('leaves malformed JSON to the SDK, which answers the model itself', async () => {
    const { toolkit } = setup();
    const events = recordEvents(toolkit);
    const { result } = await runWith(toOpenAIAgentsTools(toolkit), (request, turn) => (turn === 1 ? call('get_weather', '{"city": "Par') : say(lastOutput(request))));
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('An error occurred while parsing tool arguments. Please try again with valid JSON.');
    expect(events.events.filter((e) => e.type.startsWith('call_'))).toEqual([]);
  });

  it('is a live array: tools the application pushes stay, a spread snapshot keeps hiding disabled tools', async () => {
    const { toolkit } = setup();
    const tools = toOpenAIAgentsTools(toolkit);
    expect(Array.isArray(tools)).toBe(true);
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'charge']);
    const snapshot = [...tools];
    const own = { ...tools[0], name: 'mine' };
    tools.push(own);
    toolkit.updateToolGroups(['admin'], true);
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'delete_user', 'charge', 'mine']);
    toolkit.unregisterTool('charge');
    toolkit.registration().tool(billing).presetParameters({ charge: { apiKey: SECRET } }).apply(); // re-registered: adapted again
    toolkit.updateToolGroups(['admin'], false);
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'charge', 'mine']);
    const agent = new Agent({ name: 'n', tools: snapshot });
    const enabled = await agent.getAllTools(undefined as never);
    // the old 'charge' object was replaced by the re-registration; the snapshot's copy is off
    expect(enabled.map((t) => t.name)).toEqual(['get_weather']);
  });

  it('passes the run signal: aborting the run aborts the toolwright call', async () => {
    const toolkit = newToolkit();
    let seen: AbortSignal | undefined;
    toolkit.registerTool({
      name: 'wait',
      description: 'Wait',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) => {
        seen = ctx.signal;
        return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted'), { once: true }));
      },
    });
    const controller = new AbortController();
    const run = runWith(toOpenAIAgentsTools(toolkit), (_r, turn) => {
      if (turn === 1) setTimeout(() => controller.abort(new Error('user left')), 20);
      return turn === 1 ? call('wait', {}) : say('after');
    }, { signal: controller.signal });
    await run.catch(() => undefined);
    expect(seen?.aborted).toBe(true);
  });

  it('without onLoweringReport, a tool with no OpenAI form is left out with one TOOLWRIGHT_TOOL_SKIPPED process warning naming it and why', () => {
    const { toolkit } = setup();
    // registration checks an AgentTool's parameters once; this one's change afterwards, to a schema no provider takes
    const shifting = { name: 'shifting', description: 'Parameters that change after registration', parameters: { type: 'object', properties: {} } as AgentTool['parameters'], execute: () => 'ok' };
    toolkit.registerTool(shifting);
    shifting.parameters = { type: 'string' } as unknown as AgentTool['parameters'];
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const tools = toOpenAIAgentsTools(toolkit);
      expect(tools.map((t) => t.name)).toEqual(['get_weather', 'charge']);
      expect(tools.map((t) => t.name)).toEqual(['get_weather', 'charge']);
      const skipped = spy.mock.calls.filter(([, options]) => (options as { code?: string } | undefined)?.code === 'TOOLWRIGHT_TOOL_SKIPPED');
      expect(skipped).toHaveLength(1);
      expect(String(skipped[0]![0])).toMatch(/^toolwright\/openai-agents left tool 'shifting' out of the agent's tools: Tool "shifting" cannot be sent to OpenAI \(Responses API\): its parameters schema must be an object schema/);
    } finally {
      spy.mockRestore();
    }
  });

  it('sends a tool without a strict form with strict: false (reported), and every tool plain with strict: false', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool({
      name: 'tag',
      description: 'Tag things',
      parameters: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['labels'] },
      execute: (args) => JSON.stringify(args.labels),
    });
    const reports: string[] = [];
    const { model, result } = await runWith(
      toOpenAIAgentsTools(toolkit, { onLoweringReport: (report) => reports.push(...report.map((r) => r.change)) }),
      (request, turn) => (turn === 1 ? call('tag', { labels: { a: 'b' } }) : say(lastOutput(request))),
    );
    expect(offered(model.requests[0]).get('tag')?.strict).toBe(false);
    expect(reports[0]).toMatch(/^sent with strict: false/);
    expect(result.finalOutput).toBe('{"a":"b"}');
    const plain = toOpenAIAgentsTools(setup().toolkit, { strict: false });
    expect(plain.map((t) => [t.name, t.strict])).toEqual([['get_weather', false], ['charge', false]]);
  });

  it("leaves the SDK's approval flow to the application: a needsApproval it sets interrupts, and the approved call runs through toolwright", async () => {
    const { toolkit, admin } = setup();
    toolkit.updateToolGroups(['admin'], true);
    const tools = toOpenAIAgentsTools(toolkit).map((t) => (t.name === 'delete_user' ? { ...t, needsApproval: async () => true } : t));
    const model = new ScriptedAgentsModel((request, turn) => (turn === 1 ? call('delete_user', { id: 'u-9' }, 'call_d') : say(lastOutput(request))));
    const agent = new Agent({ name: 'tester', model, tools });
    const runner = new Runner({ tracingDisabled: true });
    const first = await runner.run(agent, 'go');
    expect(first.interruptions.map((i) => i.name)).toEqual(['delete_user']);
    expect(admin.ran).toEqual([]);
    first.state.approve(first.interruptions[0]);
    const events = recordEvents(toolkit);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe('deleted u-9');
    expect(events.of('call_started').map((e) => e.callId)).toEqual(['call_d']);
  });

  it('a rich result: the model gets forLLM then the images meant for it as structured output (input_text, input_image)', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool({
      name: 'chart',
      description: 'Draw the chart',
      parameters: { type: 'object', properties: {} },
      execute: () => contentResult(['Revenue:', imageContent(RED_PIXEL_PNG, 'image/png'), imageContent(RED_PIXEL_PNG, 'image/png', { audience: ['user'] })]),
    });
    const { model } = await runWith(toOpenAIAgentsTools(toolkit), (_request, turn) => (turn === 1 ? call('chart', {}, 'call_c') : say('a red square')));
    const input = model.requests[1].input;
    const item = typeof input === 'string' ? undefined : input.find((i) => i.type === 'function_call_result');
    expect(item).toMatchObject({
      callId: 'call_c',
      output: [
        { type: 'input_text', text: 'Revenue:\n[image: image/png, 70 bytes]' },
        { type: 'input_image', image: `data:image/png;base64,${RED_PIXEL_PNG}` },
      ],
    });
  });
});
