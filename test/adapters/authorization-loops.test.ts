import 'reflect-metadata';
import { Agent, Runner, type ModelRequest } from '@openai/agents';
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ToolCall as LangChainToolCall } from '@langchain/core/messages/tool';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { ToolExecutionContext, type ToolResult } from '../../src';
import { toAiSdkTools } from '../../src/adapters/ai-sdk';
import { TOOLWRIGHT_CONTEXT_KEY, toLangChainTools } from '../../src/adapters/langchain';
import { toOpenAIAgentsTools } from '../../src/adapters/openai-agents';
import { ann, guest, reportsToolkit } from '../support/scoped-reports';
import { scriptedModel } from './ai-sdk/ai-sdk-suite';
import { AI_SDK_6 as sdk } from './ai-sdk/sdk-v6';
import { offered, outputs, ScriptedAgentsModel } from './openai-agents/scripted-model';

/**
 * Authorization through each framework's own model-driven loop (AI SDK `generateText`, a
 * LangChain tool-calling loop over `bindTools`, OpenAI Agents `Runner.run`), not only through the
 * tool objects: a guest's run does not offer the scoped tool to the model (checked on the
 * definitions the model received); a model that calls it anyway gets a refusal and the tool
 * does not run — whether the framework refuses the unknown name itself or the call reaches
 * toolwright through tools listed for someone else with the run's context of the guest.
 */

describe('AI SDK generateText (MockLanguageModelV3)', () => {
  const write = { calls: [{ name: 'write_report', input: JSON.stringify({ title: 'leak' }), id: 'call_w' }] };

  it('a guest run is not offered the scoped tool; a hallucinated call is refused by the SDK and nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    const { model, seen } = scriptedModel(sdk, [write]);
    const result = await sdk.generateText({ model, tools: toAiSdkTools(toolkit, { context: guest }), prompt: 'go', stopWhen: sdk.stepCountIs(3) });
    expect(seen[0]!.tools!.map((t) => t.name)).toEqual(['read_reports']);
    const refusal = result.steps[0]!.content.find((part) => part.toolCallId === 'call_w' && part.type !== 'tool-call');
    expect(refusal?.type).toBe('tool-error');
    expect(String(refusal?.error)).toContain('write_report');
    expect(reports.written).toEqual([]);
  });

  it('tools listed for ann, a run whose context is the guest: toolwright refuses FORBIDDEN, the model gets the refusal, nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    const { model, seen } = scriptedModel(sdk, [write]);
    const tools = toAiSdkTools(toolkit, { context: ann });
    const result = await sdk.generateText({ model, tools, prompt: 'go', stopWhen: sdk.stepCountIs(3), experimental_context: guest });
    expect(seen[0]!.tools!.map((t) => t.name)).toEqual(['write_report', 'read_reports']);
    const part = result.steps[0]!.content.find((p) => p.toolCallId === 'call_w' && p.type !== 'tool-call');
    expect(JSON.stringify(part)).toContain("Tool 'write_report' is forbidden");
    expect(JSON.stringify(seen[1]!.prompt)).toContain("Tool 'write_report' is forbidden");
    expect(reports.written).toEqual([]);
    // the same tools in ann's run do run it
    const again = scriptedModel(sdk, [write]);
    await sdk.generateText({ model: again.model, tools, prompt: 'go', stopWhen: sdk.stepCountIs(3), experimental_context: ann });
    expect(reports.written).toEqual(['leak']);
  });
});

describe('LangChain: a tool-calling loop over bindTools (FakeStreamingChatModel)', () => {
  /** The loop a LangChain user writes without LangGraph: bind, invoke, run each tool call by name, append the ToolMessages. */
  async function runLoop(tools: StructuredToolInterface[], calls: LangChainToolCall[], runContext?: ToolExecutionContext) {
    const model = new FakeStreamingChatModel({ chunks: [new AIMessageChunk({ content: '', tool_calls: calls })] }).bindTools(tools);
    const offeredTools = (model as unknown as { config: { tools: { function: { name: string } }[] } }).config.tools.map((t) => t.function.name);
    const messages: BaseMessage[] = [new HumanMessage('go')];
    const ai = (await model.invoke(messages)) as AIMessage;
    const config = runContext === undefined ? {} : { configurable: { [TOOLWRIGHT_CONTEXT_KEY]: runContext } };
    for (const toolCall of ai.tool_calls ?? []) {
      const target = tools.find((t) => t.name === toolCall.name);
      messages.push(target ? ((await target.invoke(toolCall, config)) as ToolMessage) : new ToolMessage({ content: `Unknown tool ${toolCall.name}`, tool_call_id: toolCall.id ?? '', status: 'error' }));
    }
    return { offeredTools, toolMessages: messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)) };
  }
  const write: LangChainToolCall = { name: 'write_report', args: { title: 'leak' }, id: 'call_w', type: 'tool_call' };

  it('a guest run binds no scoped tool; the hallucinated call finds no tool and nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    const { offeredTools, toolMessages } = await runLoop(toLangChainTools(toolkit, { context: guest }), [write]);
    expect(offeredTools).toEqual(['read_reports']);
    expect(toolMessages.map((m) => [m.tool_call_id, m.status])).toEqual([['call_w', 'error']]);
    expect(reports.written).toEqual([]);
  });

  it('tools listed for ann, invoked with the guest’s run config: an error ToolMessage with FORBIDDEN, nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    const tools = toLangChainTools(toolkit, { context: ann });
    const { offeredTools, toolMessages } = await runLoop(tools, [write], guest);
    expect(offeredTools).toEqual(['write_report', 'read_reports']);
    const [refused] = toolMessages;
    expect(refused!.status).toBe('error');
    expect((refused!.artifact as ToolResult).error?.code).toBe('FORBIDDEN');
    expect(reports.written).toEqual([]);
    await runLoop(tools, [write], ann);
    expect(reports.written).toEqual(['leak']);
  });
});

describe('OpenAI Agents Runner.run (a scripted Model)', () => {
  const runner = new Runner({ tracingDisabled: true });
  const write = { calls: [{ name: 'write_report', arguments: JSON.stringify({ title: 'leak' }), callId: 'call_w' }] };

  it('a guest agent is not offered the scoped tool; a hallucinated call stops the run and nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    const model = new ScriptedAgentsModel(() => write);
    const agent = new Agent({ name: 'guest-agent', model, tools: toOpenAIAgentsTools(toolkit, { context: guest }) });
    await expect(runner.run(agent, 'go', { maxTurns: 3 })).rejects.toThrow(/write_report/);
    expect([...offered(model.requests[0]!).keys()]).toEqual(['read_reports']);
    expect(reports.written).toEqual([]);
  });

  it('tools listed for ann, a run whose context is the guest: the model gets the refusal, nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    const model = new ScriptedAgentsModel((_request, turn) => (turn === 1 ? write : { text: 'ok' }));
    const agent = new Agent<ToolExecutionContext>({ name: 'shared', model, tools: toOpenAIAgentsTools(toolkit, { context: ann }) });
    await runner.run(agent, 'go', { maxTurns: 3, context: guest });
    expect([...offered(model.requests[0]!).keys()]).toEqual(['write_report', 'read_reports']);
    expect(outputs(model.requests[1] as ModelRequest).get('call_w')).toContain("Tool 'write_report' is forbidden");
    expect(reports.written).toEqual([]);
  });
});
