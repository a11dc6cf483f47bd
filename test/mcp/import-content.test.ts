import { Container } from 'inversify';
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { Toolkit } from '../../src';
import { importMcpTools, type McpImportHandle, type McpImportOptions } from '../../src/mcp';
import { Closer, connectInMemory, connectStdio, type TestClient } from '../support/mcp';

/** The reference server, as its package's bin runs it (stdio). */
const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';

const closer = new Closer();
let everything: TestClient;

beforeAll(async () => {
  ({ client: everything } = await connectStdio(closer, [EVERYTHING, 'stdio']));
}, 30_000);
afterAll(() => closer.closeAll());

async function imported(options: McpImportOptions = {}): Promise<{ toolkit: Toolkit; handle: McpImportHandle; call(remote: string, args?: Record<string, unknown>): ReturnType<Toolkit['callTool']> }> {
  const toolkit = new Toolkit({ container: new Container() });
  const handle = await importMcpTools(everything.client, toolkit, { prefix: 'ev', followListChanged: false, ...options });
  const call = (remote: string, args: Record<string, unknown> = {}) => toolkit.callTool({ id: `c_${remote}`, name: handle.names.get(remote)!, arguments: args });
  return { toolkit, handle, call };
}

describe('importMcpTools keeps content: @modelcontextprotocol/server-everything over stdio', () => {
  it('get-tiny-image: the image stays an image part; forLLM holds the text and a placeholder', async () => {
    const { call, handle } = await imported();
    const result = await call('get-tiny-image');
    expect(result.isError).toBe(false);
    const image = result.content?.find((part) => part.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) });
    expect(result.forLLM).toMatch(/^Here's the image you requested:\n\[image: image\/png, \d+ bytes\]\nThe image above is the MCP logo\.$/);
    expect(result.forLLM).not.toContain('iVBORw0KGgo');
    await handle.close();
  });

  it('get-annotated-message: content for the user only never reaches forLLM; annotations are kept', async () => {
    const { call, handle } = await imported();
    const success = await call('get-annotated-message', { messageType: 'success', includeImage: true });
    expect(success.forLLM).not.toContain('Operation completed successfully');
    expect(success.forLLM).toBe('[2 content parts shown to the user only]');
    expect(success.forUser).toMatch(/^Operation completed successfully\n\[image: image\/png, \d+ bytes\]$/);
    expect(success.content).toEqual([
      { type: 'text', text: 'Operation completed successfully', annotations: { priority: 0.7, audience: ['user'] } },
      { type: 'image', data: expect.any(String), mimeType: 'image/png', annotations: { priority: 0.5, audience: ['user'] } },
    ]);

    const debug = await call('get-annotated-message', { messageType: 'debug' });
    expect(debug).toMatchObject({ forLLM: 'Debug: Cache hit ratio 0.95, latency 150ms', silent: true });
    expect(debug.content).toEqual([{ type: 'text', text: 'Debug: Cache hit ratio 0.95, latency 150ms', annotations: { priority: 0.3, audience: ['assistant'] } }]);

    const error = await call('get-annotated-message', { messageType: 'error' });
    expect(error).toMatchObject({ forLLM: 'Error: Operation failed', silent: false });
    expect(error.forUser).toBeUndefined(); // for both: the user sees forLLM
    await handle.close();
  });

  it('get-resource-links and get-resource-reference: links and embedded resources stay parts', async () => {
    const { call, handle } = await imported();
    const links = await call('get-resource-links', { count: 2 });
    expect(links.content?.map((part) => part.type)).toEqual(['text', 'resource_link', 'resource_link']);
    expect(links.content?.[1]).toMatchObject({ type: 'resource_link', uri: expect.stringMatching(/^demo:\/\//), name: 'Blob Resource 1', mimeType: expect.any(String) });
    expect(links.forLLM).toMatch(/\[resource link: Text Resource 2 <demo:\/\/[^>]+> \(text\/plain\) - Resource 2: plaintext resource\]/);

    const reference = await call('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    const embedded = reference.content?.find((part) => part.type === 'resource');
    expect(embedded).toMatchObject({ type: 'resource', resource: { uri: expect.any(String), mimeType: 'text/plain', text: expect.any(String) } });
    await handle.close();
  });

  it('served again by toolwright over MCP, an imported result reaches the next client as the remote sent it', async () => {
    const { toolkit, handle } = await imported();
    const direct = await everything.client.callTool({ name: 'get-annotated-message', arguments: { messageType: 'success', includeImage: true } });
    const { client } = await connectInMemory(toolkit, closer);
    const relayed = await client.call(handle.names.get('get-annotated-message')!, { messageType: 'success', includeImage: true });
    expect(relayed.content).toEqual(direct.content as ContentBlock[]);
    await handle.close();
  });

  it('maxContentParts and maxContentBytes bound what one result keeps, saying what was dropped', async () => {
    const { call, handle } = await imported({ maxContentParts: 3, maxContentBytes: 1_000 });
    const links = await call('get-resource-links', { count: 10 });
    expect(links.content).toHaveLength(4);
    expect(links.content?.[3]).toEqual({ type: 'text', text: "[8 more content parts dropped: the remote result had 11, the import's maxContentParts is 3]" });

    const image = await call('get-tiny-image');
    expect((image.content ?? []).some((part) => part.type === 'image')).toBe(false);
    expect(image.forLLM).toMatch(/\[image: image\/png, \d+ bytes\] dropped: the result passes the import's maxContentBytes \(1000\)/);
    await handle.close();
  });
});
