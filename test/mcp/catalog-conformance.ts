import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Prompt, PromptArg, Resource, ResourceParam, Tool, ToolExecutionContext, ToolParam, ToolService, type ToolView, type Toolkit } from '../../src';
import { freshToolkit } from '../support/toolkit';
import { eventually } from '../support/mcp';

/** Who is asking: the server's `context` option gives it. */
export class Caller {
  constructor(readonly name: string) {}
}

const FILES = Array.from({ length: 250 }, (_, i) => `file-${String(i).padStart(3, '0')}`);

@ToolService({ group: 'library' })
class LibraryService {
  @Resource({ uri: 'library://catalog', name: 'catalog', mimeType: 'text/plain', description: 'The catalogue' })
  catalog(caller: Caller): string {
    return `catalogue for ${caller.name}`;
  }

  @Resource({ uriTemplate: 'library://books/{isbn}', name: 'book', mimeType: 'application/json' })
  book(@ResourceParam({ name: 'isbn', schema: { pattern: '^[0-9]{3}$' }, complete: (value) => ['100', '101', '200'].filter((v) => v.startsWith(value)) }) isbn: string): object {
    return { isbn };
  }

  @Prompt({ name: 'recommend', description: 'Recommend a book' })
  recommend(
    @PromptArg({ name: 'genre', description: 'A genre', complete: (value) => FILES.filter((f) => f.startsWith(value)) }) genre: string,
    @PromptArg({ name: 'count', integer: true, required: false }) count: number | undefined,
  ): string {
    return `Recommend ${count ?? 3} ${genre} books.`;
  }

  @Tool({ description: 'Switches the library group in the caller\'s view' })
  library(@ToolParam({ name: 'on' }) on: boolean): string {
    return `library ${on ? 'on' : 'off'}`;
  }
}

/** 250 fixed resources, to page through. */
function pagedService(): object {
  @ToolService()
  class Files {}
  FILES.forEach((name, i) => {
    const method = `read${i}`;
    Object.defineProperty(Files.prototype, method, { value: () => name, configurable: true, writable: true });
    Resource({ uri: `files://${name}`, name })(Files.prototype, method, Object.getOwnPropertyDescriptor(Files.prototype, method)!);
  });
  return Files;
}

/** The toolkit every transport serves: a library group (on), 250 files, a `set_library` tool switching the group in the caller's view. */
export function createCatalogToolkit(): Toolkit {
  const toolkit = freshToolkit();
  toolkit.createToolGroup('library', 'Books', true);
  toolkit.registerTool(LibraryService);
  toolkit.registerTool(pagedService());
  return toolkit;
}

/** A connected SDK client and the toolkit view its connection is served from. */
export interface CatalogConnection {
  readonly client: Client;
  readonly view: ToolView;
  readonly toolkit: Toolkit;
}

/** The MCP context option the transports are served with. */
export const CALLER_CONTEXT = ToolExecutionContext.of(new Caller('mcp-user'));

function counter(client: Client) {
  const seen = { resources: 0, prompts: 0, updated: [] as string[] };
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    seen.resources++;
  });
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
    seen.prompts++;
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    seen.updated.push(n.params.uri);
  });
  return seen;
}

async function mcpFailure(promise: Promise<unknown>): Promise<McpError> {
  return promise.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e as McpError,
  );
}

/** What every transport must show of resources, prompts and completion with the official SDK client. */
export function describeCatalogConformance(connect: () => Promise<CatalogConnection>): void {
  let connection: CatalogConnection;
  let client: Client;
  beforeEach(async () => {
    connection = await connect();
    client = connection.client;
  });

  test('capabilities: resources with subscriptions and list_changed, prompts with list_changed, completions', () => {
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} });
  });

  test('resources/list pages 100 at a time; a cursor it did not make is -32602', async () => {
    const first = await client.listResources();
    expect(first.resources).toHaveLength(100);
    expect(first.resources[0]).toEqual({ uri: 'library://catalog', name: 'catalog', mimeType: 'text/plain', description: 'The catalogue' });
    const second = await client.listResources({ cursor: first.nextCursor! });
    const third = await client.listResources({ cursor: second.nextCursor! });
    expect(third.nextCursor).toBeUndefined();
    expect([...first.resources, ...second.resources, ...third.resources].map((r) => r.name)).toEqual(['catalog', ...FILES]);
    expect(await mcpFailure(client.listResources({ cursor: 'bogus' }))).toMatchObject({ code: -32602 });
    expect(await mcpFailure(client.listPrompts({ cursor: Buffer.from('9999').toString('base64url') }))).toMatchObject({ code: -32602 });
  });

  test('resources/templates/list and resources/read of fixed resources and template matches, with the server\'s context', async () => {
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'library://books/{isbn}', name: 'book', mimeType: 'application/json' }]);
    expect(await client.readResource({ uri: 'library://catalog' })).toEqual({ contents: [{ uri: 'library://catalog', mimeType: 'text/plain', text: 'catalogue for mcp-user' }] });
    expect(await client.readResource({ uri: 'library://books/101' })).toEqual({ contents: [{ uri: 'library://books/101', mimeType: 'application/json', text: '{"isbn":"101"}' }] });
    expect(await client.readResource({ uri: 'files://file-249' })).toEqual({ contents: [{ uri: 'files://file-249', text: 'file-249' }] });
    const invalid = await mcpFailure(client.readResource({ uri: 'library://books/12345' }));
    expect(invalid).toMatchObject({ code: -32602 });
    expect(invalid.message).toBe('MCP error -32602: Invalid arguments for resource \'book\':\n- \'isbn\': must match pattern "^[0-9]{3}$" (got "12345")');
    expect(await mcpFailure(client.readResource({ uri: 'library://nothing' }))).toMatchObject({ code: -32002, message: "MCP error -32002: Resource 'library://nothing' not found." });
  });

  test('prompts/list and prompts/get: typed arguments; a missing one is -32602 naming it; an unknown prompt -32602', async () => {
    expect((await client.listPrompts()).prompts).toEqual([
      { name: 'recommend', description: 'Recommend a book', arguments: [{ name: 'genre', description: 'A genre', required: true }, { name: 'count', required: false }] },
    ]);
    expect(await client.getPrompt({ name: 'recommend', arguments: { genre: 'crime', count: '2' } })).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Recommend 2 crime books.' } }],
    });
    const missing = await mcpFailure(client.getPrompt({ name: 'recommend', arguments: {} }));
    expect(missing).toMatchObject({ code: -32602, message: "MCP error -32602: Invalid arguments for prompt 'recommend':\n- 'genre': is required but missing" });
    expect(await mcpFailure(client.getPrompt({ name: 'recomend' }))).toMatchObject({ code: -32602, message: "MCP error -32602: Prompt 'recomend' not found. Prompts: 'recommend'." });
  });

  test('completion/complete for prompt arguments and template variables: at most 100 values, the total, hasMore', async () => {
    expect(await client.complete({ ref: { type: 'ref/resource', uri: 'library://books/{isbn}' }, argument: { name: 'isbn', value: '10' } })).toEqual({
      completion: { values: ['100', '101'], total: 2, hasMore: false },
    });
    const many = await client.complete({ ref: { type: 'ref/prompt', name: 'recommend' }, argument: { name: 'genre', value: 'file-' } });
    expect(many.completion).toMatchObject({ total: 250, hasMore: true });
    expect(many.completion.values).toHaveLength(100);
    expect(await client.complete({ ref: { type: 'ref/prompt', name: 'recommend' }, argument: { name: 'count', value: '' } })).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  test('subscriptions: notifications/resources/updated for a subscribed URI, until unsubscribed', async () => {
    const seen = counter(client);
    await client.subscribeResource({ uri: 'library://books/100' });
    await client.subscribeResource({ uri: 'library://catalog' });
    connection.view.resources.notifyUpdated('library://books/100');
    connection.view.resources.notifyUpdated('library://books/200'); // not subscribed
    await eventually(() => seen.updated.length === 1);
    await client.unsubscribeResource({ uri: 'library://books/100' });
    connection.toolkit.resources.notifyUpdated('library://books/100');
    connection.toolkit.resources.notifyUpdated('library://catalog');
    await eventually(() => seen.updated.length === 2);
    expect(seen.updated).toEqual(['library://books/100', 'library://catalog']);
    expect(await mcpFailure(client.subscribeResource({ uri: 'library://nothing' }))).toMatchObject({ code: -32002 });
  });

  test('list_changed for resources and prompts when the view\'s groups change; nothing is listed while the group is off', async () => {
    const seen = counter(client);
    connection.view.updateToolGroups(['library'], false);
    await eventually(() => seen.resources === 1 && seen.prompts === 1);
    expect((await client.listPrompts()).prompts).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await client.listResources()).resources.map((r) => r.name)).not.toContain('catalog');
    connection.view.updateToolGroups(['library'], true);
    await eventually(() => seen.resources === 2 && seen.prompts === 2);
    expect((await client.listPrompts()).prompts).toHaveLength(1);
  });
}
