import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, McpHttpHandler as SdkHttpHandler, ServerEventBus } from '@modelcontextprotocol/server';
import { Subscription } from 'rxjs';
import { skip } from 'rxjs/operators';
import type { Toolkit } from '../../toolkit/toolkit';
import { conversationClaimOf } from '../server/modern/caller-views';
import { ConversationRefusal } from '../server/modern/conversation-handle';
import { ModernMcpServers, type ModernRequest, type ModernSettings } from '../server/modern/modern-server';
import { httpRequestScope, type HttpRequestScope } from '../shared/http-request-scope';
import type { McpPrincipal } from '../shared/mcp-principal';
import { audienceBus, audienceEvent } from './mcp-http-audience';
import { ownerOf } from './mcp-http-sessions';
import { abortedWhenGone, sendWebResponse, toWebRequest } from './web-exchange';

type ServerSdk = typeof import('@modelcontextprotocol/server');

/** The `_meta` key a 2026-07-28 request names its protocol revision with. */
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** JSON-RPC error code of an unsupported protocol revision (2026-07-28). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** `@modelcontextprotocol/server` (SDK v2), loaded on first use; `null` when it is not installed. */
let serverSdk: ServerSdk | null | undefined;
/** @internal `@modelcontextprotocol/server` (SDK v2), or `undefined` when it is not installed. */
export function loadServerSdk(): ServerSdk | undefined {
  if (serverSdk === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      serverSdk = require('@modelcontextprotocol/server') as ServerSdk;
    } catch (error) {
      // only the package's own absence: a broken installation must not pass for one without it
      const { code, message } = error as { code?: unknown; message?: unknown };
      if (code !== 'MODULE_NOT_FOUND' || !String(message).includes("'@modelcontextprotocol/server'")) throw error;
      serverSdk = null;
    }
  }
  return serverSdk ?? undefined;
}

/** The revisions served with sessions: a request whose `MCP-Protocol-Version` header names one of them claims no later revision. */
const SESSION_REVISIONS: ReadonlySet<string> = new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']);

/**
 * True when a request claims a revision later than 2025-11-25: its `_meta` names one, or its
 * `MCP-Protocol-Version` header names one that is not served with sessions. Traffic claiming
 * nothing (an `initialize`, a malformed body) is answered as 2025-11-25 traffic always was.
 */
function claimsModern(req: IncomingMessage, body: unknown): boolean {
  if (claimedRevision(body) !== undefined) return true;
  const header = req.headers['mcp-protocol-version'];
  const version = Array.isArray(header) ? header[0] : header;
  return version !== undefined && !SESSION_REVISIONS.has(version);
}

/** The revision a request's `_meta` claims, when it claims one (a 2026-07-28 client's requests do). */
function claimedRevision(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const meta = (body as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const claim = typeof meta === 'object' && meta !== null ? meta[PROTOCOL_VERSION_KEY] : undefined;
  return typeof claim === 'string' ? claim : undefined;
}

/** @internal What the HTTP handler gives its 2026-07-28 side. */
export interface ModernHttpSettings extends ModernSettings {
  readonly bus?: ServerEventBus | undefined;
  /** The most `subscriptions/listen` streams open at once (the handler's `maxSessions`). */
  readonly maxStreams: number;
  /** The most `subscriptions/listen` streams one principal (or client address) holds open (`maxSessionsPerPrincipal`). */
  readonly maxStreamsPerOwner: number;
}

/** The `Retry-After` (seconds) sent with a refused `subscriptions/listen`. */
const RETRY_AFTER_S = 30;

/** True when `body` is a `subscriptions/listen` request. */
function isListen(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}

/**
 * @internal The 2026-07-28 side of the HTTP handler: after toolwright's own guard (Host, Origin,
 * `authenticate`, the bounded body), a request that claims a revision after 2025-11-25 (and that
 * SDK v2 does not classify as 2025-era traffic) is answered by an SDK v2 handler (`createMcpHandler`, modern-only) whose factory builds a server
 * from the caller's view per request. Toolkit toggles (tools, resources, prompts) are published on
 * the handler's event bus for `subscriptions/listen` streams. Without `@modelcontextprotocol/server`
 * installed, a request claiming a 2026-07-28 revision gets the unsupported-version error naming
 * 2025-11-25, and a client that negotiates falls back to it.
 */
export class ModernHttp {
  private readonly sdk: ServerSdk | undefined;
  private readonly handler: SdkHttpHandler | undefined;
  private readonly servers: ModernMcpServers | undefined;
  private readonly subscription = new Subscription();
  /** What each HTTP request being served is, for the factory (it runs inside the request's scope). */
  private readonly requests = new WeakMap<HttpRequestScope, ModernRequest>();
  /** The audience tags of each `subscriptions/listen` request being served (see {@link audienceBus}). */
  private readonly audiences = new WeakMap<HttpRequestScope, ReadonlySet<string>>();
  /** The open `subscriptions/listen` streams, per owner (a principal, or a client address). */
  private readonly streams = new Map<string, number>();
  private streamCount = 0;
  private readonly maxStreams: number;
  private readonly maxStreamsPerOwner: number;

  constructor(toolkit: Toolkit, settings: ModernHttpSettings) {
    const sdk = loadServerSdk();
    this.sdk = sdk;
    this.maxStreams = settings.maxStreams;
    this.maxStreamsPerOwner = settings.maxStreamsPerOwner;
    if (sdk === undefined) return;
    const bus = settings.bus ?? new sdk.InMemoryServerEventBus();
    const servers = new ModernMcpServers(sdk, toolkit, settings, (audience, change) => bus.publish(audienceEvent(change, audience)));
    this.servers = servers;
    this.handler = sdk.createMcpHandler((context) => servers.build(context, this.current()), {
      legacy: 'reject',
      maxSubscriptions: settings.maxStreams,
      bus: audienceBus(bus, () => this.audienceOfCurrent()),
      onerror: () => undefined,
    });
    const notify = this.handler.notify;
    this.subscription.add(toolkit.activeTools$.pipe(skip(1)).subscribe(() => notify.toolsChanged()));
    this.subscription.add(toolkit.resources.listChanged$.subscribe(() => notify.resourcesChanged()));
    this.subscription.add(toolkit.prompts.listChanged$.subscribe(() => notify.promptsChanged()));
    this.subscription.add(
      toolkit.resources.updated$.subscribe((uri) => {
        if (toolkit.resources.has(uri)) notify.resourceUpdated(uri);
      }),
    );
  }

  /**
   * Serves `req` when it claims a revision after 2025-11-25 and SDK v2 does not classify it as
   * 2025-era traffic, and resolves `true`; resolves `false` otherwise (the caller serves it with a
   * session, as before). `body` is the parsed POST body.
   */
  async serve(req: IncomingMessage, res: ServerResponse, body: unknown, principal: McpPrincipal | undefined): Promise<boolean> {
    const sdk = this.sdk;
    const handler = this.handler;
    if (sdk === undefined || handler === undefined) {
      const requested = claimedRevision(body);
      if (requested === undefined) return false;
      res.writeHead(400, { 'content-type': 'application/json' });
      const id = (body as { id?: unknown }).id;
      const error = { code: UNSUPPORTED_PROTOCOL_VERSION, message: `Unsupported protocol version: ${requested.slice(0, 40)}`, data: { supported: ['2025-11-25'], requested: requested.slice(0, 40) } };
      res.end(JSON.stringify({ jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error }));
      return true;
    }
    if (!claimsModern(req, body)) return false;
    const request = toWebRequest(req, abortedWhenGone(res));
    if (await sdk.isLegacyRequest(request, body)) return false;
    const owner = ownerOf(principal?.id, req.socket.remoteAddress);
    const stream = isListen(body);
    let audience: ReadonlySet<string> | undefined;
    if (stream) {
      try {
        audience = this.servers!.views.audienceOf(principal, conversationClaimOf(body));
      } catch (error) {
        if (!(error instanceof ConversationRefusal)) throw error;
        const id = (body as { id?: unknown }).id;
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code: error.code, message: error.message } }));
        return true;
      }
      if (!this.openStream(res, owner)) return true;
    }
    try {
      const scope: HttpRequestScope = { response: res, ...(principal ? { principal } : {}) };
      this.requests.set(scope, { principal, message: body, owner });
      if (audience !== undefined) this.audiences.set(scope, audience);
      const authInfo = principal?.authInfo as AuthInfo | undefined;
      const response = await httpRequestScope.run(scope, () => handler.fetch(request, { parsedBody: body, ...(authInfo !== undefined ? { authInfo } : {}) }));
      await sendWebResponse(res, response);
    } finally {
      if (stream) this.closeStream(owner);
    }
    return true;
  }

  /**
   * Counts a `subscriptions/listen` stream of `owner`, or answers 429 (the owner holds
   * `maxSessionsPerPrincipal`) or 503 (the server holds `maxSessions`) and returns `false`.
   */
  private openStream(res: ServerResponse, owner: string): boolean {
    const held = this.streams.get(owner) ?? 0;
    const refusal =
      held >= this.maxStreamsPerOwner
        ? { status: 429, message: `Too many streams: this client already holds ${this.maxStreamsPerOwner} subscriptions/listen streams (the server's maxSessionsPerPrincipal). Close one, or retry later.` }
        : this.streamCount >= this.maxStreams
          ? { status: 503, message: `Server busy: the limit of ${this.maxStreams} subscriptions/listen streams is reached (the server's maxSessions). Retry later.` }
          : undefined;
    if (refusal !== undefined) {
      res.writeHead(refusal.status, { 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_S) });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: refusal.message } }));
      return false;
    }
    this.streams.set(owner, held + 1);
    this.streamCount++;
    return true;
  }

  private closeStream(owner: string): void {
    this.streamCount--;
    const left = (this.streams.get(owner) ?? 1) - 1;
    if (left > 0) this.streams.set(owner, left);
    else this.streams.delete(owner);
  }

  /** Ends open `subscriptions/listen` streams and stops following the toolkit. */
  async close(): Promise<void> {
    this.subscription.unsubscribe();
    await Promise.all([this.handler?.close(), this.servers?.close()]);
  }

  /** The audience tags of the `subscriptions/listen` request being served (none outside one). */
  private audienceOfCurrent(): ReadonlySet<string> {
    const scope = httpRequestScope.getStore();
    return (scope === undefined ? undefined : this.audiences.get(scope)) ?? new Set();
  }

  /** What the factory's request is: read from the HTTP request scope it runs in. */
  private current(): ModernRequest {
    const scope = httpRequestScope.getStore();
    const request = scope === undefined ? undefined : this.requests.get(scope);
    return request ?? { principal: undefined, message: undefined, owner: 'unknown' };
  }
}
