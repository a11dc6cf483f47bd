import type { Readable, Writable } from 'node:stream';
import type { McpServer, Transport } from '@modelcontextprotocol/server';
import { Subscription } from 'rxjs';
import { skip } from 'rxjs/operators';
import type { ToolkitSession } from '../../toolkit/sessions/toolkit-session';
import type { Toolkit } from '../../toolkit/toolkit';
import type { ToolView } from '../../toolkit/tool-view';
import type { McpServerOptions } from '../server/mcp-server';
import { ModernMcpServers } from '../server/modern/modern-server';

type ServerSdk = typeof import('@modelcontextprotocol/server');
type StdioSdk = typeof import('@modelcontextprotocol/server/stdio');

/**
 * How long a response waits after a progress or log notification of this connection. The SDK client
 * handles notifications a microtask later than responses, so one that reaches it in the same stdout
 * chunk as the response is dropped; 2026-07-28 has no `ping` to put a round trip between them (as
 * the 2025-11-25 side's `progressBarrier` does), so the response goes in a later write instead.
 */
const NOTIFICATION_GAP_MS = 20;

/** A stdio transport whose responses keep {@link NOTIFICATION_GAP_MS} after progress and log notifications. */
function spacedTransport(sdk: StdioSdk, input: Readable, output: Writable, maxBufferSize: number): Transport {
  const transport = new sdk.StdioServerTransport(input, output, { maxBufferSize });
  const send = transport.send.bind(transport);
  let notifiedAt = 0;
  transport.send = async (message) => {
    const method = (message as { method?: unknown }).method;
    if (method === 'notifications/progress' || method === 'notifications/message') {
      await send(message);
      notifiedAt = Date.now();
      return;
    }
    const wait = notifiedAt + NOTIFICATION_GAP_MS - Date.now();
    if (method === undefined && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return send(message);
  };
  return transport;
}

/** @internal What the 2026-07-28 side of stdio serves with. */
export interface ModernStdioSettings extends McpServerOptions {
  /** The key that signs `requestState` and task entries (see `McpStdioOptions.stateSecret`). */
  readonly stateSecret?: string | Uint8Array | undefined;
}

/**
 * @internal Serves a stdio connection that opened with 2026-07-28 through SDK v2's `serveStdio`
 * (modern only: a later `initialize` gets the unsupported-version error naming 2026-07-28). Its one
 * server per connection is built by the factory the HTTP side uses, from the caller's view: the
 * toolkit's own with `sessions: false`, else a toolkit session of the connection (the stdio client
 * has no principal: nothing authenticates it).
 * Multi Round-Trip Requests, per-request log level, progress, cancellation, `subscriptions/listen`
 * and the tasks extension work as over HTTP; toggles of the toolkit and of the connection's session
 * (`equip_tool_groups`, a skill) reach the listening subscriptions.
 */
export function serveModernStdio(sdk: ServerSdk, toolkit: Toolkit, settings: ModernStdioSettings, input: Readable, output: Writable): { close(): Promise<void> } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const stdio = require('@modelcontextprotocol/server/stdio') as StdioSdk;
  const subscription = new Subscription();
  let current: McpServer | undefined;
  const notify = (send: (server: McpServer) => void): void => {
    if (current?.isConnected()) send(current);
  };
  /** Tells the connection's listening subscriptions about changes of `view` (the toolkit's, or the connection's session). */
  const follow = (view: ToolView): void => {
    const own = new Subscription();
    // a session's subscriptions end with it (its activeTools$ completes when it closes)
    own.add(view.activeTools$.pipe(skip(1)).subscribe({ next: () => notify((s) => s.sendToolListChanged()), complete: () => subscription.remove(own) }));
    own.add(view.resources.listChanged$.subscribe(() => notify((s) => s.sendResourceListChanged())));
    own.add(view.prompts.listChanged$.subscribe(() => notify((s) => s.sendPromptListChanged())));
    subscription.add(own);
  };
  follow(toolkit);
  const onSession = (session: ToolkitSession): void => {
    settings.onSession?.(session);
    follow(session);
  };
  const servers = new ModernMcpServers(sdk, toolkit, { ...settings, onSession, authenticated: false, sessionTtlMs: Infinity, conversationHandles: false });
  const handle = stdio.serveStdio(
    async (context) => {
      const server = await servers.build(context, { principal: undefined, message: undefined, owner: 'stdio' });
      current = server;
      return server;
    },
    { legacy: 'reject', transport: spacedTransport(stdio, input, output, sdk.STDIO_DEFAULT_MAX_BUFFER_SIZE), onerror: () => undefined },
  );
  return {
    close: async () => {
      subscription.unsubscribe();
      await Promise.all([handle.close(), servers.close()]);
    },
  };
}
