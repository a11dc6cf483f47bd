import 'reflect-metadata';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { defineSkill, Prompt, PromptArg, Resource, ResourceParam, Tool, ToolParam, ToolService, ToolkitError, type Toolkit, type ToolkitErrorCode } from '../../../src';
import { createMcpServer, serveMcpHttp } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { freshToolkit } from '../../support/toolkit';

/**
 * Attack: a hostile MCP client (or a caller of the view API) reaches for resources and prompts of
 * a group its view has off — by URI, by a URI that a hidden template matches, by prompt name,
 * through completion or a subscription, in another session than the one that switched the group
 * on, through a closed session. Every path answers "not found" (or SESSION_CLOSED) and no method
 * runs: groups are the permission boundary for resources and prompts as for tools.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

const ran: string[] = [];

@ToolService({ group: 'admin' })
class AdminCatalog {
  @Resource({ uri: 'admin://users', name: 'users', description: 'Every user' })
  users(): string {
    ran.push('users');
    return 'alice, bob';
  }

  @Resource({ uriTemplate: 'admin://users/{id}', name: 'user' })
  user(@ResourceParam({ name: 'id', complete: (v) => { ran.push('complete-id'); return [`${v}1`]; } }) id: string): string {
    ran.push(`user ${id}`);
    return `user ${id}`;
  }

  @Prompt({ name: 'purge', description: 'Purge a user' })
  purge(@PromptArg({ name: 'id', complete: (v) => { ran.push('complete-purge'); return [v]; } }) id: string): string {
    ran.push(`purge ${id}`);
    return `Purge ${id}`;
  }
}

@ToolService()
class PublicCatalog {
  @Resource({ uriTemplate: 'admin://{rest}', name: 'public_fallback' })
  fallback(@ResourceParam('rest') rest: string): string {
    return `public ${rest}`;
  }

  @Tool({ description: 'Switch a group on or off in the caller\'s session' })
  setGroup(@ToolParam({ name: 'on' }) on: boolean): string {
    return String(on);
  }
}

function adminToolkit(): Toolkit {
  ran.length = 0;
  const toolkit = freshToolkit();
  toolkit.createToolGroup('admin', 'Admin', false);
  toolkit.registerTool(AdminCatalog);
  return toolkit;
}

async function code(promise: Promise<unknown>): Promise<ToolkitErrorCode | 'resolved'> {
  return promise.then(
    () => 'resolved' as const,
    (e: unknown) => (ToolkitError.is(e) ? e.code : (() => { throw e; })()),
  );
}

describe('attack: resources and prompts of a group that is off', () => {
  it('the view API: not listed, not readable by URI or template, not gettable, not completable', async () => {
    const toolkit = adminToolkit();
    expect(toolkit.resources.list()).toEqual([]);
    expect(toolkit.resources.templates()).toEqual([]);
    expect(toolkit.prompts.list()).toEqual([]);
    expect(await code(toolkit.resources.read('admin://users'))).toBe('UNKNOWN_RESOURCE');
    expect(await code(toolkit.resources.read('admin://users/7'))).toBe('UNKNOWN_RESOURCE');
    expect(await code(toolkit.resources.complete('admin://users/{id}', 'id', 'a'))).toBe('UNKNOWN_RESOURCE');
    expect(await code(toolkit.prompts.get('purge', { id: 'x' }))).toBe('UNKNOWN_PROMPT');
    expect(await code(toolkit.prompts.complete('purge', 'id', 'x'))).toBe('UNKNOWN_PROMPT');
    expect(toolkit.resources.has('admin://users')).toBe(false);
    // the "not found" text does not reveal the hidden prompt either
    await toolkit.prompts.get('purg').catch((e: Error) => expect(e.message).toBe("Prompt 'purg' not found. Prompts: (none)."));
    expect(ran).toEqual([]);
  });

  it('a visible template that matches the URI of a hidden one answers instead; the hidden method never runs', async () => {
    const toolkit = adminToolkit();
    toolkit.registerTool(PublicCatalog);
    expect((await toolkit.resources.read('admin://users')).contents[0]).toMatchObject({ text: 'public users' });
    expect(await code(toolkit.resources.read('admin://users/7'))).toBe('UNKNOWN_RESOURCE'); // '/' is not in a simple value
    expect(ran).toEqual([]);
  });

  it('sessions: a group switched on in one session is reachable there only; switched off again, it is gone', async () => {
    const toolkit = adminToolkit();
    const alice = toolkit.session('alice');
    const mallory = toolkit.session('mallory');
    alice.updateToolGroups(['admin'], true);
    expect((await alice.resources.read('admin://users/1')).contents[0]).toMatchObject({ text: 'user 1' });
    expect((await alice.prompts.get('purge', { id: 'bob' })).messages).toHaveLength(1);
    expect(await code(mallory.resources.read('admin://users/1'))).toBe('UNKNOWN_RESOURCE');
    expect(await code(mallory.prompts.get('purge', { id: 'bob' }))).toBe('UNKNOWN_PROMPT');
    expect(await code(toolkit.resources.read('admin://users'))).toBe('UNKNOWN_RESOURCE');
    alice.updateToolGroups(['admin'], false);
    expect(await code(alice.resources.read('admin://users'))).toBe('UNKNOWN_RESOURCE');
    expect(ran).toEqual(['user 1', 'purge bob']);
  });

  it('skills select tools, not resources: a skill does not open a group; switching it off during the skill closes it', async () => {
    const toolkit = adminToolkit();
    toolkit.registerTool(PublicCatalog);
    toolkit.registerSkill(defineSkill({ name: 'ops', description: 'Ops', tools: ['set_group'], instructions: 'Be careful.' }));
    const session = toolkit.session('s');
    await session.activateSkill('ops');
    expect(await code(session.resources.read('admin://users/1'))).toBe('UNKNOWN_RESOURCE');
    session.updateToolGroups(['admin'], true);
    expect(await code(session.resources.read('admin://users/1'))).toBe('resolved');
    await session.deactivateSkill(); // the group switched on during the skill ends with it
    expect(await code(session.resources.read('admin://users/1'))).toBe('UNKNOWN_RESOURCE');
  });

  it('a closed session refuses reads, gets and completions with SESSION_CLOSED', async () => {
    const toolkit = adminToolkit();
    const session = toolkit.session('gone');
    session.updateToolGroups(['admin'], true);
    session.close();
    expect(await code(session.resources.read('admin://users'))).toBe('SESSION_CLOSED');
    expect(await code(session.prompts.get('purge', { id: 'x' }))).toBe('SESSION_CLOSED');
    expect(await code(session.prompts.complete('purge', 'id', 'x'))).toBe('SESSION_CLOSED');
    expect(ran).toEqual([]);
  });

  it('a hostile MCP client (in memory) asking by URI, template, name, completion and subscription gets errors and no content', async () => {
    const toolkit = adminToolkit();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = closer.add(createMcpServer(toolkit, { name: 't', version: '0' }));
    await mcp.connect(serverSide);
    const client = closer.add(new Client({ name: 'mallory', version: '0' }));
    await client.connect(clientSide);
    const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as McpError);
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    const reads = await Promise.all(['admin://users', 'admin://users/1', 'admin://users/%2E%2E'].map((uri) => failure(client.readResource({ uri }))));
    for (const error of reads) expect(error).toMatchObject({ code: -32002 });
    expect(reads[0]!.message).toBe("MCP error -32002: Resource 'admin://users' not found.");
    expect(await failure(client.getPrompt({ name: 'purge', arguments: { id: 'x' } }))).toMatchObject({ code: -32602 });
    expect(await failure(client.complete({ ref: { type: 'ref/prompt', name: 'purge' }, argument: { name: 'id', value: 'x' } }))).toMatchObject({ code: -32602 });
    expect(await failure(client.complete({ ref: { type: 'ref/resource', uri: 'admin://users/{id}' }, argument: { name: 'id', value: 'x' } }))).toMatchObject({ code: -32602 });
    expect(await failure(client.subscribeResource({ uri: 'admin://users' }))).toMatchObject({ code: -32002 });
    expect(ran).toEqual([]);
  });

  it('over Streamable HTTP: the session that switched the group on reads; another client, in its own session, cannot — not even updates', async () => {
    const toolkit = adminToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 't', version: '0' }));
    const connect = async (name: string) => {
      const client = closer.add(new Client({ name, version: '0' }));
      const transport = new StreamableHTTPClientTransport(http.url);
      await client.connect(transport);
      const updates: string[] = [];
      let next: (() => void) | undefined;
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        updates.push(n.params.uri);
        next?.();
      });
      const nextUpdate = () => new Promise<void>((resolve) => (next = resolve));
      return { client, sessionId: transport.sessionId!, updates, nextUpdate };
    };
    const alice = await connect('alice');
    const mallory = await connect('mallory');
    toolkit.session(alice.sessionId).updateToolGroups(['admin'], true);

    expect((await alice.client.readResource({ uri: 'admin://users' })).contents).toEqual([{ uri: 'admin://users', text: 'alice, bob' }]);
    await alice.client.subscribeResource({ uri: 'admin://users' });
    await expect(mallory.client.readResource({ uri: 'admin://users' })).rejects.toMatchObject({ code: -32002 });
    await expect(mallory.client.readResource({ uri: 'admin://users/1' })).rejects.toMatchObject({ code: -32002 });
    await expect(mallory.client.subscribeResource({ uri: 'admin://users' })).rejects.toMatchObject({ code: -32002 });
    await expect(mallory.client.getPrompt({ name: 'purge', arguments: { id: 'x' } })).rejects.toMatchObject({ code: -32602 });

    const updated = alice.nextUpdate();
    toolkit.resources.notifyUpdated('admin://users');
    await updated;
    expect(alice.updates).toEqual(['admin://users']);

    // switched off: alice's subscription no longer tells her anything either
    toolkit.session(alice.sessionId).updateToolGroups(['admin'], false);
    toolkit.resources.notifyUpdated('admin://users');
    await expect(alice.client.readResource({ uri: 'admin://users' })).rejects.toMatchObject({ code: -32002 });
    await mallory.client.ping();
    expect(alice.updates).toEqual(['admin://users']);
    expect(mallory.updates).toEqual([]);
    expect(ran).toEqual(['users']);
  });
});
