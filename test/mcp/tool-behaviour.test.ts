import { Tool, ToolParam, Toolkit } from '../../src';
import { Closer, connectInMemory } from '../support/mcp';

class Forecasts {
  @Tool({
    name: 'forecast',
    description: 'Forecast for a city',
    title: 'City forecast',
    annotations: { readOnly: true },
    outputSchema: { type: 'object', properties: { city: { type: 'string' }, tempC: { type: 'number' } }, required: ['city', 'tempC'] },
  })
  forecast(@ToolParam({ name: 'city' }) city: string): { city: string; tempC: number } {
    return { city, tempC: 21 };
  }
}

describe('title and outputSchema declared on @Tool', () => {
  const closer = new Closer();
  afterEach(() => closer.closeAll());

  it('reach MCP tools/list, and the structured result reaches structuredContent', async () => {
    const toolkit = new Toolkit();
    toolkit.registerTool(Forecasts);
    expect(toolkit.getTool('forecast')?.behaviour).toMatchObject({ title: 'City forecast' });
    const { client } = await connectInMemory(toolkit, closer);
    const listed = await client.client.listTools();
    const tool = listed.tools.find((t) => t.name === 'forecast')!;
    expect(tool.title).toBe('City forecast');
    expect(tool.annotations).toMatchObject({ title: 'City forecast', readOnlyHint: true });
    expect(tool.outputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' }, tempC: { type: 'number' } } });
    const result = await client.call('forecast', { city: 'Oslo' });
    expect(result.structuredContent).toEqual({ city: 'Oslo', tempC: 21 });
  });
});
