import 'reflect-metadata';
import { toAiSdkTools } from '../../src/adapters/ai-sdk';
import { TOOLWRIGHT_CONTEXT_KEY, toLangChainTools } from '../../src/adapters/langchain';
import { toOpenAIAgentsTools } from '../../src/adapters/openai-agents';
import { ann, guest, reportsToolkit } from '../support/scoped-reports';

/**
 * The adapters list only the tools the caller may use, and a call the framework routes to a
 * tool anyway (a run context of another principal, a tool object kept from an earlier list) is
 * refused with FORBIDDEN and does not run.
 */

describe('authorization through the framework adapters', () => {
  it('AI SDK: hidden from a guest; a guest run context on the tool object is refused, nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    expect(Object.keys(toAiSdkTools(toolkit, { context: guest }))).not.toContain('write_report');
    const tools = toAiSdkTools(toolkit, { context: ann, preliminaryResults: false });
    const output = await Promise.resolve(tools.write_report!.execute!({ title: 'x' }, { toolCallId: 'c1', messages: [], experimental_context: guest })).then(
      (value) => JSON.stringify(value),
      (error: unknown) => String(error),
    );
    expect(output).toContain('forbidden');
    expect(reports.written).toEqual([]);
    await tools.write_report!.execute!({ title: 'ok' }, { toolCallId: 'c2', messages: [] });
    expect(reports.written).toEqual(['ok']);
  });

  it('LangChain: hidden from a guest; a guest run context is refused, nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    expect(toLangChainTools(toolkit, { context: guest }).map((t) => t.name)).not.toContain('write_report');
    const write = toLangChainTools(toolkit, { context: ann }).find((t) => t.name === 'write_report')!;
    const message = await write.invoke(
      { name: 'write_report', args: { title: 'x' }, id: 'c1', type: 'tool_call' },
      { configurable: { [TOOLWRIGHT_CONTEXT_KEY]: guest } },
    );
    expect(JSON.stringify(message)).toContain('FORBIDDEN');
    expect(reports.written).toEqual([]);
  });

  it('OpenAI Agents: hidden from a guest; a guest run context is refused, nothing runs', async () => {
    const { toolkit, reports } = reportsToolkit();
    expect(toOpenAIAgentsTools(toolkit, { context: guest }).map((t) => t.name)).not.toContain('write_report');
    const write = toOpenAIAgentsTools(toolkit, { context: ann }).find((t) => t.name === 'write_report')!;
    const output = await write.invoke({ context: guest } as never, JSON.stringify({ title: 'x' }));
    expect(JSON.stringify(output)).toContain('forbidden');
    expect(reports.written).toEqual([]);
  });
});
