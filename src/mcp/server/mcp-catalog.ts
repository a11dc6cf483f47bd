import type { Server, ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import type { Subscription } from 'rxjs';
import type { ToolView } from '../../toolkit/tool-view';
import { serveCompletion } from './mcp-completion';
import { followPrompts, servePrompts } from './mcp-prompts';
import { McpResources } from './mcp-resources';
import type { McpCallSettings } from './mcp-tool-call';

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
 * {@link servePrompts}, {@link serveCompletion}), served from the view `viewFor` gives.
 */
export class McpCatalog {
  private readonly resources: McpResources;
  private subscription: Subscription | undefined;

  constructor(
    private readonly server: Server,
    settings: McpCallSettings,
    viewFor: (sessionId: string | undefined) => ToolView,
  ) {
    this.resources = new McpResources(server, settings, viewFor);
    servePrompts(server, settings, viewFor);
    serveCompletion(server, settings, viewFor);
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
