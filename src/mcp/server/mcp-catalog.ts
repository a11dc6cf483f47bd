import type { Server, ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import type { Subscription } from 'rxjs';
import type { ToolView } from '../../toolkit/tool-view';
import type { McpChannelSettings } from './mcp-call-channel';
import { DEFAULT_CLIENT_REQUEST_TIMEOUT_MS, McpClientLink } from './mcp-client-requests';
import { serveCompletion } from './mcp-completion';
import { followPrompts, servePrompts } from './mcp-prompts';
import { McpResources } from './mcp-resources';
import type { McpCallSettings } from './mcp-tool-call';
import type { RequestSlots } from './request-slots';

/** @internal What a toolwright MCP server declares besides tools: resources (with subscriptions), prompts, completions. */
export const CATALOG_CAPABILITIES = Object.freeze({
  resources: Object.freeze({ subscribe: true, listChanged: true }),
  prompts: Object.freeze({ listChanged: true }),
  completions: Object.freeze({}),
}) satisfies NonNullable<ServerOptions['capabilities']>;

/** @internal The list_changed notifications of resources and prompts: a burst of toggles in one tick sends one. */
export const CATALOG_NOTIFICATIONS = ['notifications/resources/list_changed', 'notifications/prompts/list_changed'];

/**
 * @internal The resources, prompts and completion of one MCP connection (see {@link McpResources},
 * {@link servePrompts}, {@link serveCompletion}), served from the view `viewFor` gives. Reads,
 * prompts and completions hold the connection's `slots` while they run (as tool calls do); what a
 * prompt or resource asks the client goes out as requests related to its request.
 */
export class McpCatalog {
  private readonly resources: McpResources;
  private subscription: Subscription | undefined;

  constructor(
    private readonly server: Server,
    settings: McpCallSettings & McpChannelSettings,
    viewFor: (sessionId: string | undefined) => ToolView,
    slots: RequestSlots,
  ) {
    const link = new McpClientLink(server, settings.clientRequestTimeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS);
    this.resources = new McpResources(server, settings, viewFor, slots, link);
    servePrompts(server, settings, viewFor, slots, link);
    serveCompletion(server, settings, viewFor, slots);
  }

  /** Follows `view` for list changes and resource updates. */
  watch(view: ToolView): void {
    const subscription = this.resources.follow(view);
    subscription.add(followPrompts(this.server, view));
    this.subscription = subscription;
  }

  /** Stops following the view. */
  release(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }
}
