import 'reflect-metadata';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { ApprovalManager, Tool, ToolExecutionContext, Toolkit } from '../../../src';
import { McpPrincipal, bearerAuth, serveMcpHttp, type McpAuthenticate, type McpHttpServer } from '../../../src/mcp';
import { Closer, TestClient, textOf } from '../../support/mcp';
import { INITIALIZE, messagesOf, post, rawSession, sdkClient, toolsCall } from '../../support/mcp-http';

/**
 * Security item 7: `authenticate` guards every request (401 + `WWW-Authenticate: Bearer`),
 * the principal reaches tools as call context, and a session cannot be used with another
 * principal's credentials (session hijack by id).
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

const ANN_TOKEN = 'ann-token-7f3a9c2e51';
const BOB_TOKEN = 'bob-token-0c8d44e1b9';

class TeamPrincipal extends McpPrincipal {
  constructor(
    id: string,
    readonly team: string,
  ) {
    super(id, { scopes: ['tools'] });
  }
}

/** Who `whoami` ran for: a refused request must not run it, whatever status it gets. */
const whoamiRuns: string[] = [];

class AccountService {
  @Tool({ description: 'Who is calling' })
  whoami(principal: McpPrincipal): string {
    whoamiRuns.push(principal.id);
    return `${principal.id} [${principal.scopes.join(',')}]`;
  }

  @Tool({ description: 'Which team is calling' })
  team(principal: TeamPrincipal): string {
    return principal.team;
  }
}

function newToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registerTool(new AccountService());
  toolkit.registerTool({
    name: 'context_reader',
    description: 'Reads the principal through ctx.context',
    parameters: { type: 'object', properties: {} },
    execute: (_args, ctx) => ctx.context.get(McpPrincipal)?.id ?? 'nobody',
  });
  return toolkit;
}

const principals = new Map([
  [ANN_TOKEN, new TeamPrincipal('ann', 'blue')],
  [BOB_TOKEN, new TeamPrincipal('bob', 'red')],
]);

async function serve(authenticate: McpAuthenticate = bearerAuth((token) => principals.get(token))): Promise<McpHttpServer> {
  return closer.add(await serveMcpHttp(newToolkit(), { name: 'auth', version: '0', authenticate }));
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const inSession = (sessionId: string, headers: Record<string, string> = {}) => ({ ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });

describe('MCP HTTP authentication', () => {
  test('no credentials: 401 with WWW-Authenticate: Bearer; the SDK client cannot connect', async () => {
    const http = await serve();
    const answer = await post(http.url, INITIALIZE);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
    expect(messagesOf(answer.text)[0].error?.message).toMatch(/Unauthorized/);
    const client = closer.add(new TestClient());
    const failure = await client.connect(new StreamableHTTPClientTransport(http.url)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StreamableHTTPError);
    expect((failure as StreamableHTTPError).code).toBe(401);
    expect(http.handler.sessionCount).toBe(0);
  });

  test('a wrong or malformed token: 401 invalid_token, and the token is not echoed', async () => {
    const http = await serve();
    for (const authorization of ['Bearer not-a-known-token', 'Basic YW5uOnB3', 'Bearer', `Bearer ${ANN_TOKEN} extra`]) {
      const answer = await post(http.url, INITIALIZE, { authorization });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
      expect(answer.text).not.toContain('not-a-known-token');
    }
    expect(http.handler.sessionCount).toBe(0);
  });

  test('an authenticator that throws refuses the request (401) without leaking its message', async () => {
    const http = await serve(() => {
      throw new Error(`database password hunter2 rejected for ${ANN_TOKEN}`);
    });
    const answer = await post(http.url, INITIALIZE, bearer(ANN_TOKEN));
    expect(answer.status).toBe(401);
    expect(answer.text).not.toMatch(/hunter2|ann-token/);
  });

  test('the principal reaches tools by type (McpPrincipal, a subclass) and through ctx.context', async () => {
    const http = await serve();
    const { client } = await sdkClient(closer, http.url, bearer(ANN_TOKEN));
    expect(textOf(await client.call('whoami'))).toBe('ann [tools]');
    expect(textOf(await client.call('team'))).toBe('blue');
    expect(textOf(await client.call('context_reader'))).toBe('ann');
    expect(await client.toolNames()).toEqual(['whoami', 'team', 'context_reader']); // the principal is no model parameter
  });

  test('a principal given by the context option cannot shadow the authenticated one', async () => {
    const toolkit = newToolkit();
    const http = closer.add(
      await serveMcpHttp(toolkit, {
        name: 'auth',
        version: '0',
        authenticate: bearerAuth((token) => principals.get(token)),
        context: ({ principal }) => ToolExecutionContext.builder().register(McpPrincipal, new McpPrincipal(`admin-for-${principal?.id}`)).build(),
      }),
    );
    const { client } = await sdkClient(closer, http.url, bearer(BOB_TOKEN));
    expect(textOf(await client.call('whoami'))).toBe('bob [tools]');
  });

  test('session hijack: another principal (or none) cannot use, or end, a session by its id', async () => {
    const http = await serve();
    const annSession = await rawSession(http.url, bearer(ANN_TOKEN));
    const call = toolsCall(2, 'whoami');
    whoamiRuns.length = 0;

    const asBob = await post(http.url, call, inSession(annSession, bearer(BOB_TOKEN)));
    expect(asBob.status).toBe(404); // as if the session did not exist: ids cannot be probed
    expect(asBob.text).not.toContain('whoami');
    const anonymous = await post(http.url, call, inSession(annSession));
    expect(anonymous.status).toBe(401);
    const bobDeletes = await post(http.url, '', inSession(annSession, bearer(BOB_TOKEN)), { method: 'DELETE' });
    expect(bobDeletes.status).toBe(404);
    const bobListens = await post(http.url, '', { ...inSession(annSession, bearer(BOB_TOKEN)), accept: 'text/event-stream' }, { method: 'GET' });
    expect(bobListens.status).toBe(404);
    expect(http.handler.sessionCount).toBe(1);
    expect(whoamiRuns).toEqual([]);

    const asAnn = await post(http.url, call, inSession(annSession, bearer(ANN_TOKEN)));
    expect(asAnn.status).toBe(200);
    expect(messagesOf(asAnn.text)[0].result).toMatchObject({ content: [{ type: 'text', text: 'ann [tools]' }] });
    expect(whoamiRuns).toEqual(['ann']);
  });

  test('bearerAuth accepts the SDK AuthInfo of a token verifier (the principal is its subject); an expired one is refused', async () => {
    const infos: Record<string, AuthInfo> = {
      fresh: { token: 'fresh', clientId: 'client-1', scopes: ['read'], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: 'user-1' } },
      expired: { token: 'expired', clientId: 'client-2', scopes: ['read'], expiresAt: Math.floor(Date.now() / 1000) - 10, extra: { sub: 'user-2' } },
    };
    const http = await serve(bearerAuth(async (token) => infos[token]));
    const { client } = await sdkClient(closer, http.url, bearer('fresh'));
    expect(textOf(await client.call('whoami'))).toBe('user-1 [read]');
    expect((await post(http.url, INITIALIZE, bearer('expired'))).status).toBe(401);
  });

  test('every request is authenticated: a revoked token stops working mid-session', async () => {
    const tokens = new Map([['temp', new McpPrincipal('temp-user')]]);
    const http = await serve(bearerAuth((token) => tokens.get(token)));
    const { client } = await sdkClient(closer, http.url, bearer('temp'));
    expect(textOf(await client.call('whoami'))).toBe('temp-user []');
    tokens.delete('temp');
    await expect(client.call('whoami')).rejects.toThrow(/401|Unauthorized/);
    expect(http.handler.sessionCount).toBe(1); // refused, not ended: the token's owner may come back with a fresh one
  });
});

/** Two people signed in through one OAuth client (one `clientId`), told apart by the token's subject. */
const ONE_CLIENT = 'reports-web-app';
const soon = () => Math.floor(Date.now() / 1000) + 3600;
const oauthTokens: Record<string, AuthInfo> = {
  'alice-oauth-token': { token: 'alice-oauth-token', clientId: ONE_CLIENT, scopes: ['reports'], expiresAt: soon(), extra: { sub: 'user-alice', email: 'alice@example.com' } },
  'bob-oauth-token': { token: 'bob-oauth-token', clientId: ONE_CLIENT, scopes: ['reports'], expiresAt: soon(), extra: { sub: 'user-bob', email: 'bob@example.com' } },
  'no-subject-token': { token: 'no-subject-token', clientId: ONE_CLIENT, scopes: ['reports'], expiresAt: soon() },
};
const REPORTS = [
  { owner: 'user-alice', title: 'alice: salaries 2026' },
  { owner: 'user-bob', title: 'bob: travel costs' },
];

function reportsToolkit(): Toolkit {
  const toolkit = newToolkit();
  toolkit.registerTool({
    name: 'my_reports',
    description: "The caller's own reports",
    parameters: { type: 'object', properties: {} },
    execute: (_args, ctx) => {
      const principal = ctx.context.get(McpPrincipal);
      return REPORTS.filter((r) => r.owner === principal?.id).map((r) => r.title).join('; ');
    },
  });
  return toolkit;
}

async function serveOAuth(authenticate: McpAuthenticate = bearerAuth(async (token) => oauthTokens[token])): Promise<McpHttpServer> {
  return closer.add(await serveMcpHttp(reportsToolkit(), { name: 'oauth', version: '0', authenticate }));
}

/** The texts of the process warnings with `code` emitted while `run` runs. */
async function warningsDuring(code: string, run: () => Promise<void>): Promise<string[]> {
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    await run();
    return spy.mock.calls.filter(([, options]) => (options as { code?: string } | undefined)?.code === code).map(([message]) => String(message));
  } finally {
    spy.mockRestore();
  }
}

describe('MCP HTTP authentication: every user of one OAuth client is a principal of their own', () => {
  test("the principal is the token's user (extra.sub), not the OAuth client: each sees their own reports", async () => {
    const http = await serveOAuth();
    const alice = (await sdkClient(closer, http.url, bearer('alice-oauth-token'))).client;
    const bob = (await sdkClient(closer, http.url, bearer('bob-oauth-token'))).client;
    expect(textOf(await alice.call('whoami'))).toBe('user-alice [reports]');
    expect(textOf(await alice.call('my_reports'))).toBe('alice: salaries 2026');
    expect(textOf(await bob.call('my_reports'))).toBe('bob: travel costs');
  });

  test("a second user of the same client can neither use nor DELETE the first one's session (official SDK client)", async () => {
    const http = await serveOAuth();
    const { client: alice, transport: aliceTransport } = await sdkClient(closer, http.url, bearer('alice-oauth-token'));
    const aliceSession = aliceTransport.sessionId!;

    // Bob's own SDK client, pointed at Alice's session id: the SDK skips initialize and goes straight to the session
    const bobTransport = new StreamableHTTPClientTransport(http.url, { sessionId: aliceSession, requestInit: { headers: bearer('bob-oauth-token') } });
    const bob = closer.add(new TestClient());
    await bob.connect(bobTransport);
    const used = await bob.call('my_reports').catch((e: unknown) => e);
    expect(used).toBeInstanceOf(StreamableHTTPError);
    expect((used as StreamableHTTPError).code).toBe(404);
    await expect(bobTransport.terminateSession()).rejects.toThrow(/Not Found/);

    expect(http.handler.sessionCount).toBe(1);
    expect(textOf(await alice.call('my_reports'))).toBe('alice: salaries 2026'); // still Alice's, still open
  });

  test('a token that names no user (no sub, no principalId chooser) is refused with a clear 401, not merged into its client', async () => {
    const http = await serveOAuth();
    const warnings = await warningsDuring('TOOLWRIGHT_MCP_AMBIGUOUS_PRINCIPAL', async () => {
      const answer = await post(http.url, INITIALIZE, bearer('no-subject-token'));
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
      expect(messagesOf(answer.text)[0].error?.message).toMatch(/identif(y|ies) no user/);
      expect(answer.text).not.toContain('no-subject-token');
      const client = closer.add(new TestClient());
      const failure = await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: bearer('no-subject-token') } })).catch((e: unknown) => e);
      expect((failure as StreamableHTTPError).code).toBe(401);
    });
    expect(warnings).toHaveLength(1); // the operator learns the fix once
    expect(warnings[0]).toContain('principalId');
    expect(warnings[0]).not.toContain('no-subject-token');
    expect(http.handler.sessionCount).toBe(0);
  });

  test('principalId chooses the user from the AuthInfo; a chooser that finds none refuses the request', async () => {
    const http = await serveOAuth(bearerAuth(async (token) => oauthTokens[token], { principalId: (info) => info.extra?.email as string | undefined }));
    const { client } = await sdkClient(closer, http.url, bearer('bob-oauth-token'));
    expect(textOf(await client.call('whoami'))).toBe('bob@example.com [reports]');
    expect((await post(http.url, INITIALIZE, bearer('no-subject-token'))).status).toBe(401);
  });

  test('an authenticate that returns something without an id (a raw AuthInfo) is refused, never one shared principal', async () => {
    const authenticate = (async (req: { headers: { authorization?: string } }) => oauthTokens[req.headers.authorization?.slice(7) ?? '']) as unknown as McpAuthenticate;
    const http = await serveOAuth(authenticate);
    const warnings = await warningsDuring('TOOLWRIGHT_MCP_AMBIGUOUS_PRINCIPAL', async () => {
      expect((await post(http.url, INITIALIZE, bearer('alice-oauth-token'))).status).toBe(401);
    });
    expect(warnings).toHaveLength(1);
    expect(http.handler.sessionCount).toBe(0);
  });

  test("approvals over MCP belong to the token's user and end with the MCP session", async () => {
    const toolkit = reportsToolkit();
    const approvals = new ApprovalManager({ tools: ['my_reports'], principal: (ctx) => ctx.context.get(McpPrincipal)?.id });
    toolkit.use(approvals.hook);
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'oauth', version: '0', authenticate: bearerAuth(async (token) => oauthTokens[token]) }));
    const { client: alice, transport: aliceTransport } = await sdkClient(closer, http.url, bearer('alice-oauth-token'));
    const { client: bob } = await sdkClient(closer, http.url, bearer('bob-oauth-token'));
    const held = await Promise.all([alice.call('my_reports'), bob.call('my_reports')]);
    for (const answer of held) expect(textOf(answer)).toContain("needs a person's approval"); // nothing ran
    expect(approvals.pending().map((p) => p.principal).sort()).toEqual(['user-alice', 'user-bob']);
    await aliceTransport.terminateSession();
    expect(approvals.pending().map((p) => p.principal)).toEqual(['user-bob']);
  });

  test('mistakes detectable at startup throw at once: a principalId that is not a function, an empty principal id', () => {
    expect(() => bearerAuth(() => undefined, { principalId: 'sub' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => bearerAuth('verify' as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new McpPrincipal('')).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
