import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Prompt, PromptArg, Resource, ToolService } from '../../src';
import { McpPrincipal, bearerAuth, serveMcpHttp, type McpHttpServer } from '../../src/mcp';
import { Closer } from '../support/mcp';
import { freshToolkit } from '../support/toolkit';
import { CALLER_CONTEXT, createCatalogToolkit, describeCatalogConformance } from './catalog-conformance';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('serveMcpHttp: resources, prompts and completion over Streamable HTTP, one toolkit session per MCP session', () => {
  describeCatalogConformance(async () => {
    const toolkit = createCatalogToolkit();
    const http: McpHttpServer = closer.add(await serveMcpHttp(toolkit, { name: 'library', version: '1.0.0', context: CALLER_CONTEXT }));
    const client = closer.add(new Client({ name: 'reader', version: '1.0.0' }));
    const transport = new StreamableHTTPClientTransport(http.url);
    await client.connect(transport);
    await client.ping(); // the server binds its toolkit session once the session id is known
    return { client, view: toolkit.session(transport.sessionId!), toolkit };
  });
});

describe('serveMcpHttp: the authenticated principal reaches resource and prompt methods, as it reaches tools', () => {
  test('a resource and a prompt receive the McpPrincipal of the request', async () => {
    @ToolService()
    class Mine {
      @Resource({ uri: 'me://profile', name: 'profile' })
      profile(who: McpPrincipal): string {
        return `profile of ${who.id} (${who.scopes.join(',')})`;
      }

      @Prompt({ description: 'Greets the caller' })
      greet(@PromptArg('tone') tone: string, who: McpPrincipal): string {
        return `Greet ${who.id} in a ${tone} tone.`;
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Mine);
    const tokens = new Map([['t-alice', new McpPrincipal('alice', { scopes: ['read'] })]]);
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'me', version: '1', authenticate: bearerAuth((token) => tokens.get(token)) }));
    const client = closer.add(new Client({ name: 'alice', version: '1' }));
    await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: 'Bearer t-alice' } } }));
    expect((await client.readResource({ uri: 'me://profile' })).contents).toEqual([{ uri: 'me://profile', text: 'profile of alice (read)' }]);
    expect((await client.getPrompt({ name: 'greet', arguments: { tone: 'warm' } })).messages[0].content).toEqual({ type: 'text', text: 'Greet alice in a warm tone.' });
  });
});
