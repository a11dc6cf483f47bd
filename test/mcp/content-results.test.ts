import 'reflect-metadata';
import { Container } from 'inversify';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { createConformanceToolkit } from '../../conformance/server';
import { contentResult, embeddedResource, imageContent, resourceLink, textContent, Toolkit, type AgentTool } from '../../src';
import { serveMcpHttp, withMcpOptions } from '../../src/mcp';
import { RED_PIXEL_PNG } from '../support/content';
import { findLeaks } from '../support/leaks';
import { Closer, connectInMemory, type TestClient } from '../support/mcp';
import { sdkClient } from '../support/mcp-http';

const closer = new Closer();
afterEach(() => closer.closeAll());

/**
 * The checks of `@modelcontextprotocol/conformance` 0.1.16's content scenarios, as its sources
 * make them (a scenario fails with the first of these messages).
 */
async function scenarioFaults(client: TestClient): Promise<Record<string, string[]>> {
  const faults: Record<string, string[]> = {};
  const image = await client.client.callTool({ name: 'test_image_content', arguments: {} });
  const imageBlock = (image.content as ContentBlock[]).find((c) => c.type === 'image');
  faults['tools-call-image'] = [
    ...(imageBlock ? [] : ['No image content found']),
    ...(imageBlock && !imageBlock.data ? ['Image content missing data field'] : []),
    ...(imageBlock && !imageBlock.mimeType ? ['Image content missing mimeType'] : []),
  ];
  const audio = await client.client.callTool({ name: 'test_audio_content', arguments: {} });
  const audioBlock = (audio.content as ContentBlock[]).find((c) => c.type === 'audio');
  faults['tools-call-audio'] = [
    ...(audioBlock ? [] : ['No audio content found']),
    ...(audioBlock && !audioBlock.data ? ['Audio content missing data field'] : []),
    ...(audioBlock && audioBlock.mimeType !== 'audio/wav' ? [`Expected mimeType 'audio/wav', got '${audioBlock.mimeType}'`] : []),
  ];
  const embedded = await client.client.callTool({ name: 'test_embedded_resource', arguments: {} });
  const resource = (embedded.content as ContentBlock[]).find((c) => c.type === 'resource');
  faults['tools-call-embedded-resource'] = [
    ...(resource ? [] : ['No resource content found']),
    ...(resource && !resource.resource.uri ? ['Resource missing uri field'] : []),
    ...(resource && !resource.resource.mimeType ? ['Resource missing mimeType field'] : []),
    ...(resource && !('text' in resource.resource && resource.resource.text) && !('blob' in resource.resource && resource.resource.blob)
      ? ['Resource missing both text and blob fields']
      : []),
  ];
  const mixed = await client.client.callTool({ name: 'test_multiple_content_types', arguments: {} });
  const types = (mixed.content as ContentBlock[]).map((c) => c.type);
  faults['tools-call-mixed-content'] = [
    ...(types.length < 2 ? ['Expected multiple content items'] : []),
    ...(['text', 'image', 'resource'] as const).filter((t) => !types.includes(t)).map((t) => `Missing ${t} content`),
  ];
  return faults;
}

const NO_FAULTS = { 'tools-call-image': [], 'tools-call-audio': [], 'tools-call-embedded-resource': [], 'tools-call-mixed-content': [] };

describe('rich results over MCP', () => {
  it('pass the conformance suite content scenarios over the in-memory transport (results validated by the SDK client)', async () => {
    const { client } = await connectInMemory(createConformanceToolkit(), closer);
    expect(await scenarioFaults(client)).toEqual(NO_FAULTS);
  });

  it('pass them over Streamable HTTP on 127.0.0.1, as the suite runs them', async () => {
    const http = closer.add(await serveMcpHttp(createConformanceToolkit(), { name: 'content', version: '0.0.0', port: 0 }));
    const { client } = await sdkClient(closer, http.url);
    expect(await scenarioFaults(client)).toEqual(NO_FAULTS);
    const mixed = (await client.client.callTool({ name: 'test_multiple_content_types', arguments: {} })) as CallToolResult;
    expect(mixed.content).toEqual([
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ]);
  });

  it('serve every part with its annotations, user-only parts included, and only the MCP fields of each kind', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    const extra = { ...textContent('x'), debug: 'internal' };
    toolkit.registerTool({
      name: 'report',
      description: 'a rich report',
      parameters: { type: 'object', properties: {} },
      execute: () =>
        contentResult([
          textContent('Summary for the model', { audience: ['assistant'], priority: 1 }),
          imageContent(RED_PIXEL_PNG, 'image/png', { audience: ['user'], lastModified: '2026-01-05T10:00:00Z' }),
          embeddedResource({ uri: 'file:///a.bin', blob: new Uint8Array([1, 2, 3]) }, { priority: 0 }),
          resourceLink({ uri: 'file:///q3.pdf', name: 'q3.pdf', title: 'Q3', size: 1024 }),
          extra,
        ]),
    });
    const { client } = await connectInMemory(toolkit, closer);
    const result = await client.call('report');
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([
      { type: 'text', text: 'Summary for the model', annotations: { audience: ['assistant'], priority: 1 } },
      { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png', annotations: { audience: ['user'], lastModified: '2026-01-05T10:00:00Z' } },
      { type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AQID' }, annotations: { priority: 0 } },
      { type: 'resource_link', uri: 'file:///q3.pdf', name: 'q3.pdf', title: 'Q3', size: 1024 },
      { type: 'text', text: 'x' },
    ]);
  });

  it('serve a structured result beside its parts', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    const stats: AgentTool = {
      name: 'stats',
      description: 'stats with a chart',
      parameters: { type: 'object', properties: {} },
      execute: () => contentResult(['n is 3', imageContent(RED_PIXEL_PNG, 'image/png')], { n: 3 }),
    };
    toolkit.registerTool(withMcpOptions(stats, { outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }));
    const { client } = await connectInMemory(toolkit, closer);
    const result = await client.call('stats');
    expect(result.structuredContent).toEqual({ n: 3 });
    expect(result.content.map((c) => c.type)).toEqual(['text', 'image']);
  });

  it('a tool with malformed parts answers an isError result naming the part, never a JSON-RPC error the client cannot read', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool({
      name: 'broken',
      description: 'returns a broken image',
      parameters: { type: 'object', properties: {} },
      execute: () => ({ forLLM: 'x', silent: false, isError: false, async: false, content: [{ type: 'image', data: 'not base64', mimeType: 'image/png' }] }),
    });
    const { client } = await connectInMemory(toolkit, closer);
    const result = await client.call('broken');
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Tool 'broken' returned malformed content: part 1 \(image\): data is not base64/) }]);
  });

  it('a preset value never leaves in the MCP response, in any part or in the bytes of a binary part', async () => {
    const SECRET = 'mcp-secret-0f9e8d7c';
    const toolkit = new Toolkit({ container: new Container() });
    toolkit
      .registration()
      .tool({
        name: 'leaky',
        description: 'puts its key everywhere',
        parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
        execute: (args) =>
          contentResult([
            `key ${String(args.key)}`,
            imageContent(Buffer.concat([Buffer.from(RED_PIXEL_PNG, 'base64'), Buffer.from(String(args.key))]), 'image/png'),
            embeddedResource({ uri: `secret://${String(args.key)}`, text: String(args.key) }),
            resourceLink({ uri: `https://x/?k=${encodeURIComponent(String(args.key))}`, name: String(args.key) }),
          ]),
      })
      .presetParameters({ leaky: { key: SECRET } })
      .apply();
    const { client } = await connectInMemory(toolkit, closer);
    const result = await client.call('leaky');
    const decoded = result.content.flatMap((c) => (c.type === 'image' ? [Buffer.from(c.data, 'base64').toString('utf8')] : []));
    expect(findLeaks(result, [SECRET])).toEqual([]);
    expect(findLeaks(decoded, [SECRET])).toEqual([]);
    expect(result.content[1]).toEqual({ type: 'text', text: '[REDACTED]' });
  });
});
