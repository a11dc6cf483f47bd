import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { ToolExecutionContext } from '../common/execution-context';
import { Principal } from '../common/principal';

/**
 * Who is calling over MCP HTTP, as the `authenticate` option of `createMcpHttpHandler` /
 * `serveMcpHttp` established it. Each MCP session is bound to the principal that created it
 * (by {@link McpPrincipal.id}), and every tool call carries the request's principal as call
 * context: a tool parameter typed `McpPrincipal` receives it (an `AgentTool` reads
 * `ctx.context.get(McpPrincipal)`). Subclass it to carry more; tools may ask for the subclass.
 * It is a {@link Principal}: `@Tool({ scopes })` and the toolkit's `authorize` rule apply to it
 * as to any caller, and a parameter typed `Principal` receives it too.
 *
 * @example
 * class ReportService {
 *   @Tool({ description: 'My reports' })
 *   mine(principal: McpPrincipal) { return reports.filter((r) => r.owner === principal.id); }
 * }
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0',
 *   authenticate: bearerAuth((token) => (token === process.env.MCP_TOKEN ? new McpPrincipal('ops') : undefined)) });
 */
export class McpPrincipal extends Principal {
  /** The SDK's auth info, when the principal came from a token verifier; tools see it as `extra.authInfo` too. */
  readonly authInfo?: AuthInfo;

  /**
   * `scopes` default to the auth info's. The id (sessions are bound to it) is never a token.
   *
   * @throws ToolkitError `INVALID_CONTEXT` when `id` is not a non-empty string or a scope is not one.
   */
  constructor(
    id: string,
    options: {
      readonly scopes?: readonly string[] | undefined;
      readonly authInfo?: AuthInfo | undefined;
      readonly claims?: Readonly<Record<string, unknown>> | undefined;
    } = {},
  ) {
    super(id, { scopes: options.scopes ?? options.authInfo?.scopes ?? [], claims: options.claims });
    if (options.authInfo !== undefined) this.authInfo = options.authInfo;
  }
}

/**
 * What an `authenticate` option returns for one HTTP request: the principal, or `undefined` /
 * `null` to refuse it. A thrown error or a rejected promise refuses it too. Refused requests get
 * HTTP 401 with `WWW-Authenticate: Bearer`; the error's text is never sent to the client.
 *
 * @example
 * const authenticate: McpAuthenticate = async (req) => (await sessions.lookup(req.headers.cookie)) ?? undefined;
 */
export type McpAuthenticate = (request: IncomingMessage) => McpPrincipal | null | undefined | Promise<McpPrincipal | null | undefined>;

/** What a {@link bearerAuth} verifier returns for a token: a principal, the SDK's `AuthInfo`, or nothing (refused). */
export type McpTokenVerdict = McpPrincipal | AuthInfo | null | undefined;

/** `Authorization: Bearer <token>` (RFC 6750 `b64token` characters), the scheme case-insensitive. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * An {@link McpAuthenticate} that reads `Authorization: Bearer <token>` and asks `verify` about
 * the token. `verify` may return an {@link McpPrincipal}, or the SDK's `AuthInfo` (what an
 * `OAuthTokenVerifier.verifyAccessToken` resolves to: the principal's id is its `clientId`, and
 * an `expiresAt` in the past refuses the request). A missing or malformed header is refused
 * without calling `verify`.
 *
 * @example
 * const tokens = new Map([[process.env.MCP_TOKEN_ANN!, new McpPrincipal('ann', { scopes: ['read'] })]]);
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', host: '0.0.0.0', authenticate: bearerAuth((token) => tokens.get(token)) });
 * // with an SDK OAuth verifier
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', authenticate: bearerAuth((token) => verifier.verifyAccessToken(token)) });
 */
export function bearerAuth(verify: (token: string, request: IncomingMessage) => McpTokenVerdict | Promise<McpTokenVerdict>): McpAuthenticate {
  return async (request) => {
    const header = request.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token === undefined) return undefined;
    const verdict = await verify(token, request);
    if (verdict === null || verdict === undefined || verdict instanceof McpPrincipal) return verdict;
    if (typeof verdict.expiresAt === 'number' && verdict.expiresAt * 1000 < Date.now()) return undefined;
    return new McpPrincipal(verdict.clientId, { authInfo: verdict });
  };
}

/** @internal The call context carrying `principal`: under `Principal`, `McpPrincipal`, and its own class when it is a subclass. */
export function principalContext(principal: McpPrincipal): ToolExecutionContext {
  const builder = ToolExecutionContext.builder().register(Principal, principal).register(McpPrincipal, principal);
  if (principal.constructor !== McpPrincipal) builder.register(principal);
  return builder.build();
}
