import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { ToolExecutionContext } from '../../model/execution-context';
import { Principal } from '../../model/principal';
import { quoteInput } from '../../utils/quote-input';
import { ToolkitError } from '../../errors';

/**
 * Who is calling over MCP HTTP, as the `authenticate` option of `createMcpHttpHandler` /
 * `serveMcpHttp` established it. Each MCP session is bound to the principal that created it
 * (by {@link McpPrincipal.id}), and every tool call carries the request's principal as call
 * context: a tool parameter typed `McpPrincipal` receives it (an `AgentTool` reads
 * `ctx.context.get(McpPrincipal)`). Subclass it to carry more; tools may ask for the subclass.
 * The id names one user: two people must never share it (see {@link bearerAuth}).
 * It is a {@link Principal}: `@Tool({ scopes })` and the toolkit's `authorize` rule apply to it
 * as to any caller, and a parameter typed `Principal` receives it too.
 *
 * @example
 * class ReportService {
 *   @Tool({ description: 'My reports' })
 *   mine(principal: McpPrincipal) { return reports.filter((r) => r.owner === principal.id); }
 * }
 * const users = new Map([[process.env.MCP_TOKEN_ANN!, new McpPrincipal('ann')], [process.env.MCP_TOKEN_BOB!, new McpPrincipal('bob')]]);
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', authenticate: bearerAuth((token) => users.get(token)) });
 */
export class McpPrincipal extends Principal {
  /** The SDK's auth info, when the principal came from a token verifier; tools see it as `extra.authInfo` too. */
  readonly authInfo?: AuthInfo;

  /**
   * `scopes` default to the auth info's. The id names one user (a user id, a token's `sub`):
   * sessions are bound to it. Never a token.
   *
   * @throws ToolkitError `INVALID_OPTIONS` when `id` is not a non-empty string; `INVALID_CONTEXT`
   * when a scope is not one.
   */
  constructor(
    id: string,
    options: {
      readonly scopes?: readonly string[] | undefined;
      readonly authInfo?: AuthInfo | undefined;
      readonly claims?: Readonly<Record<string, unknown>> | undefined;
    } = {},
  ) {
    if (!isPrincipalId(id)) throw new ToolkitError('INVALID_OPTIONS', `McpPrincipal: the id must be a non-empty string naming one user, got ${typeof id === 'string' ? 'an empty string' : typeof id}.`);
    super(id, { scopes: options.scopes ?? options.authInfo?.scopes ?? [], claims: options.claims });
    if (options.authInfo !== undefined) this.authInfo = options.authInfo;
  }
}

/**
 * What an `authenticate` option returns for one HTTP request: the principal, or `undefined` /
 * `null` to refuse it. A thrown error or a rejected promise refuses it too. Refused requests get
 * HTTP 401 with `WWW-Authenticate: Bearer`; the error's text is never sent to the client. A
 * returned value without a non-empty string `id` is refused as well (and reported once as the
 * process warning `TOOLWRIGHT_MCP_AMBIGUOUS_PRINCIPAL`): it would make every caller one principal.
 *
 * @example
 * const authenticate: McpAuthenticate = async (req) => (await sessions.lookup(req.headers.cookie)) ?? undefined;
 */
export type McpAuthenticate = (request: IncomingMessage) => McpPrincipal | null | undefined | Promise<McpPrincipal | null | undefined>;

/** What a {@link bearerAuth} verifier returns for a token: a principal, the SDK's `AuthInfo`, or nothing (refused). */
export type McpTokenVerdict = McpPrincipal | AuthInfo | null | undefined;

/**
 * Options of {@link bearerAuth}.
 *
 * @example
 * bearerAuth(verify, { principalId: (info) => (typeof info.extra?.email === 'string' ? info.extra.email : undefined) });
 */
export interface BearerAuthOptions {
  /**
   * The user an `AuthInfo` belongs to, as the principal's id. Default: `authInfo.extra.sub` (the
   * JWT / token-introspection subject), when it is a non-empty string. Returning `undefined` (or
   * an empty string) refuses the request. A token that identifies a program rather than a person
   * (client credentials) may be given its client's id here: `(info) => info.clientId` — then
   * every holder of that client's tokens is one principal.
   */
  readonly principalId?: ((authInfo: AuthInfo) => string | undefined) | undefined;
}

/** `Authorization: Bearer <token>` (RFC 6750 `b64token` characters), the scheme case-insensitive. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** @internal The code of the warning emitted when a request is refused because its principal names no user. */
export const AMBIGUOUS_PRINCIPAL_WARNING = 'TOOLWRIGHT_MCP_AMBIGUOUS_PRINCIPAL';

/** The longest client id quoted in the operator's warning. */
const MAX_CLIENT_ID_CHARS = 100;

/** True for a usable principal id: a non-empty string. */
function isPrincipalId(id: unknown): id is string {
  return typeof id === 'string' && id !== '';
}

/** The default `principalId`: the token's subject. */
function subjectOf(authInfo: AuthInfo): string | undefined {
  const sub = authInfo.extra?.['sub'];
  return typeof sub === 'string' ? sub : undefined;
}

/**
 * @internal Thrown by an authenticator to refuse a request with a reason the client may read
 * (the MCP HTTP handler answers 401 with it); other errors are answered without their text.
 */
export class McpAuthRefusal extends Error {
  constructor(
    /** The text sent to the client: nothing secret, nothing the client sent. */
    readonly clientMessage: string,
    /** The `error_description` of the `WWW-Authenticate` challenge. */
    readonly challenge: string,
  ) {
    super(clientMessage);
  }
}

/** @internal The refusal of a request whose credentials were accepted but name no user. */
export function ambiguousPrincipal(): McpAuthRefusal {
  return new McpAuthRefusal(
    'Unauthorized: the credentials were accepted but identify no user, and the server does not treat different users as one. Sign in as a user.',
    'The token identifies no user',
  );
}

/** @internal The one-time operator warning for an authenticator whose principals name no user. */
export function ambiguousPrincipalWarning(): (why: string) => void {
  let warned = false;
  return (why) => {
    if (warned) return;
    warned = true;
    process.emitWarning(`toolwright MCP HTTP: a request was refused (401) because ${why}, so its users could not be told apart.`, { code: AMBIGUOUS_PRINCIPAL_WARNING });
  };
}

/**
 * An {@link McpAuthenticate} that reads `Authorization: Bearer <token>` and asks `verify` about
 * the token. `verify` may return an {@link McpPrincipal}, or the SDK's `AuthInfo` (what an
 * `OAuthTokenVerifier.verifyAccessToken` resolves to): the principal's id is then the user the
 * token was issued to — `options.principalId(authInfo)`, by default `authInfo.extra.sub` —,
 * never its OAuth client, which all of an app's users share. An `AuthInfo` without one is refused
 * (HTTP 401 saying the token identifies no user; the operator gets one process warning,
 * `TOOLWRIGHT_MCP_AMBIGUOUS_PRINCIPAL`, naming the fix), and so is an `expiresAt` in the past.
 * A missing or malformed header is refused without calling `verify`.
 *
 * @throws ToolkitError `INVALID_OPTIONS` when `verify` or `options.principalId` is not a function.
 *
 * @example
 * const tokens = new Map([[process.env.MCP_TOKEN_ANN!, new McpPrincipal('ann', { scopes: ['read'] })]]);
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', host: '0.0.0.0', authenticate: bearerAuth((token) => tokens.get(token)) });
 * // an SDK OAuth verifier whose AuthInfo carries the subject: `extra: { sub: introspection.sub }`
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', authenticate: bearerAuth((token) => verifier.verifyAccessToken(token)) });
 */
export function bearerAuth(verify: (token: string, request: IncomingMessage) => McpTokenVerdict | Promise<McpTokenVerdict>, options: BearerAuthOptions = {}): McpAuthenticate {
  if (typeof verify !== 'function') throw new ToolkitError('INVALID_OPTIONS', `bearerAuth(verify): verify must be a function from a token to a principal or an AuthInfo, got ${typeof verify}.`);
  const chooser = options.principalId;
  if (chooser !== undefined && typeof chooser !== 'function') {
    throw new ToolkitError('INVALID_OPTIONS', `bearerAuth: principalId must be a function from an AuthInfo to the user's id (e.g. (info) => info.extra?.sub), got ${typeof chooser}.`);
  }
  const principalId = chooser ?? subjectOf;
  const warn = ambiguousPrincipalWarning();
  return async (request) => {
    const header = request.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token === undefined) return undefined;
    const verdict = await verify(token, request);
    if (verdict === null || verdict === undefined || verdict instanceof McpPrincipal) return verdict;
    if (typeof verdict.expiresAt === 'number' && verdict.expiresAt * 1000 < Date.now()) return undefined;
    const id = principalId(verdict);
    if (!isPrincipalId(id)) {
      const client = quoteInput(String(verdict.clientId), MAX_CLIENT_ID_CHARS);
      warn(
        chooser === undefined
          ? `a token of OAuth client ${client} has no user in its AuthInfo (extra.sub). Put the user's id in extra.sub from your verifier, or pass bearerAuth(verify, { principalId: (authInfo) => … })`
          : `bearerAuth's principalId found no user in a token of OAuth client ${client}`,
      );
      throw ambiguousPrincipal();
    }
    return new McpPrincipal(id, { authInfo: verdict });
  };
}

/** @internal The call context carrying `principal`: under `Principal`, `McpPrincipal`, and its own class when it is a subclass. */
export function principalContext(principal: McpPrincipal): ToolExecutionContext {
  const builder = ToolExecutionContext.builder().register(Principal, principal).register(McpPrincipal, principal);
  if (principal.constructor !== McpPrincipal) builder.register(principal);
  return builder.build();
}
