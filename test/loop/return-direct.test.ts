import 'reflect-metadata';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Agent, Runner, setTracingDisabled } from '@openai/agents';
import { generateText, stepCountIs } from 'ai';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { runToolLoop, ScriptedProvider, Tool, ToolParam, ToolService, type Toolkit } from '../../src';
import { stopOnReturnDirect, toAiSdkTools } from '../../src/adapters/ai-sdk';
import { toLangChainTools } from '../../src/adapters/langchain';
import { returnDirectToolUse, toOpenAIAgentsTools } from '../../src/adapters/openai-agents';
import { call, scriptedModel } from '../adapters/ai-sdk/ai-sdk-suite';
import { AI_SDK_6 } from '../adapters/ai-sdk/sdk-v6';
import { ScriptedAgentsModel } from '../adapters/openai-agents/scripted-model';
import { newToolkit } from '../support/toolkit';

setTracingDisabled(true);

@ToolService()
class Reports {
  readonly looked: string[] = [];

  @Tool({ description: 'Render the final report (it is the answer)', returnDirect: true })
  render(@ToolParam({ name: 'title' }) title: string): string {
    if (title === 'fail') throw new Error('the renderer crashed');
    return `# ${title}`;
  }

  @Tool({ description: 'Look something up (slowly)' })
  async lookup(@ToolParam({ name: 'q' }) q: string): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 30));
    this.looked.push(q);
    return `found ${q}`;
  }
}

function setup(): { toolkit: Toolkit; reports: Reports } {
  const toolkit = newToolkit();
  const reports = new Reports();
  toolkit.registerTool(reports);
  return { toolkit, reports };
}

const user = [{ role: 'user' as const, content: 'Report please' }];

describe('returnDirect in runToolLoop', () => {
  test("the tool's result is the answer: no further model call, reported in the result", async () => {
    const { toolkit } = setup();
    const provider = new ScriptedProvider([ScriptedProvider.toolCall('render', { title: 'Q3' }), ScriptedProvider.reply('never asked')]);
    const result = await runToolLoop({ provider, model: 'm', toolkit }, user);
    expect(provider.requests).toHaveLength(1);
    expect(result).toMatchObject({ content: '# Q3', stopReason: 'return_direct', iterations: 1, toolCalls: 1 });
    expect(result.returnedDirect).toMatchObject({ tool: 'render', result: { forLLM: '# Q3', isError: false } });
    expect(result.returnedDirect!.callId).toBe(result.messages.find((m) => m.role === 'tool')!.toolCallId);
  });

  test('in a batch, the loop ends after every call of the batch has finished', async () => {
    const { toolkit, reports } = setup();
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'render', arguments: { title: 'Q3' } }, { name: 'lookup', arguments: { q: 'sales' } }] },
      ScriptedProvider.reply('never asked'),
    ]);
    const result = await runToolLoop({ provider, model: 'm', toolkit }, user);
    expect(result.stopReason).toBe('return_direct');
    expect(reports.looked).toEqual(['sales']);
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['# Q3', 'found sales']);
    expect(provider.requests).toHaveLength(1);
  });

  test('an error result (a throwing tool, invalid arguments) does not end the loop', async () => {
    const { toolkit } = setup();
    const provider = new ScriptedProvider([
      ScriptedProvider.toolCall('render', { title: 'fail' }),
      ScriptedProvider.toolCall('render', { title: 42 }),
      ScriptedProvider.reply('I could not render it.'),
    ]);
    const result = await runToolLoop({ provider, model: 'm', toolkit, finalSummary: true }, user);
    expect(provider.requests).toHaveLength(3);
    expect(result).toMatchObject({ content: 'I could not render it.', stopReason: 'completed' });
    expect(result.returnedDirect).toBeUndefined();
  });

  test('an AgentTool with behaviour.returnDirect ends the loop too; other tools do not', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool({ name: 'note', description: 'Note', parameters: { type: 'object', properties: {} }, execute: () => 'noted' });
    toolkit.registerTool({ name: 'final', description: 'Final', parameters: { type: 'object', properties: {} }, behaviour: { returnDirect: true }, execute: () => 'the end' });
    const provider = new ScriptedProvider([ScriptedProvider.toolCall('note', {}), ScriptedProvider.toolCall('final', {}), ScriptedProvider.reply('never')]);
    const result = await runToolLoop({ provider, model: 'm', toolkit }, user);
    expect(result).toMatchObject({ content: 'the end', stopReason: 'return_direct', iterations: 2 });
  });
});

describe('returnDirect through the OpenAI Agents SDK (toolUseBehavior: returnDirectToolUse)', () => {
  const agentFor = (toolkit: Toolkit, model: ScriptedAgentsModel) =>
    new Agent({ name: 'reports', model, tools: toOpenAIAgentsTools(toolkit), toolUseBehavior: returnDirectToolUse });

  test("the run's final output is the tool's output, after the whole turn, with no further model call", async () => {
    const { toolkit, reports } = setup();
    const model = new ScriptedAgentsModel((_r, turn) =>
      turn === 1
        ? { calls: [{ name: 'lookup', arguments: '{"q":"sales"}' }, { name: 'render', arguments: '{"title":"Q3"}' }] }
        : { text: 'never asked' },
    );
    const result = await new Runner({ tracingDisabled: true }).run(agentFor(toolkit, model), 'go', { maxTurns: 4 });
    expect(result.finalOutput).toBe('# Q3');
    expect(reports.looked).toEqual(['sales']);
    expect(model.requests).toHaveLength(1);
  });

  test('a failed call of the tool goes back to the model', async () => {
    const { toolkit } = setup();
    const model = new ScriptedAgentsModel((_r, turn) => (turn === 1 ? { calls: [{ name: 'render', arguments: '{"title":"fail"}' }] } : { text: 'It failed.' }));
    const result = await new Runner({ tracingDisabled: true }).run(agentFor(toolkit, model), 'go', { maxTurns: 4 });
    expect(result.finalOutput).toBe('It failed.');
    expect(model.requests).toHaveLength(2);
  });
});

describe('returnDirect through the AI SDK (stopWhen: stopOnReturnDirect)', () => {

  test('generateText stops after the step in which the tool answered', async () => {
    const { toolkit, reports } = setup();
    const { model, seen } = scriptedModel(AI_SDK_6, [{ calls: [call('render', { title: 'Q3' }), call('lookup', { q: 'sales' })] }, { text: 'never asked' }]);
    const result = await generateText({ model: model as never, tools: toAiSdkTools(toolkit), stopWhen: [stopOnReturnDirect(toolkit), stepCountIs(5)], prompt: 'go' });
    expect(seen).toHaveLength(1);
    expect(result.steps).toHaveLength(1);
    expect(reports.looked).toEqual(['sales']);
    expect(result.steps.at(-1)!.toolResults.find((r) => r.toolName === 'render')!.output).toMatchObject({ forLLM: '# Q3' });
  });

  test('a failed call (a tool-error) does not stop the run', async () => {
    const { toolkit } = setup();
    const { model, seen } = scriptedModel(AI_SDK_6, [{ calls: [call('render', { title: 'fail' })] }, { text: 'It failed.' }]);
    const result = await generateText({ model: model as never, tools: toAiSdkTools(toolkit), stopWhen: [stopOnReturnDirect(toolkit), stepCountIs(5)], prompt: 'go' });
    expect(seen).toHaveLength(2);
    expect(result.text).toBe('It failed.');
  });
});

describe("returnDirect through LangChain (createAgent honours the tool's returnDirect)", () => {
  const agentFor = (toolkit: Toolkit, turns: { name: string; args: Record<string, unknown>; id: string }[][]) =>
    createAgent({ model: new FakeToolCallingModel({ toolCalls: [...turns, []] }), tools: toLangChainTools(toolkit) });

  test("the run ends with the tool's answer as its last message, without another model call", async () => {
    const { toolkit } = setup();
    expect(toLangChainTools(toolkit).map((t) => [t.name, t.returnDirect])).toEqual([
      ['render', true],
      ['lookup', false],
    ]);
    const state = await agentFor(toolkit, [[{ name: 'render', args: { title: 'Q3' }, id: 'c1' }]]).invoke({ messages: [new HumanMessage('Report please')] });
    const last = state.messages.at(-1)!;
    expect(ToolMessage.isInstance(last) && last.content).toBe('# Q3');
    expect(state.messages.filter((m) => AIMessage.isInstance(m))).toHaveLength(1);
  });

  test('a failed call of the tool goes back to the model', async () => {
    const { toolkit } = setup();
    const state = await agentFor(toolkit, [[{ name: 'render', args: { title: 'fail' }, id: 'c1' }]]).invoke({ messages: [new HumanMessage('Report please')] });
    expect(AIMessage.isInstance(state.messages.at(-1))).toBe(true);
    expect(state.messages.filter((m) => AIMessage.isInstance(m))).toHaveLength(2);
  });
});
