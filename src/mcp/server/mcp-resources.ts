import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Subscription } from 'rxjs';
import type { ToolExecutionContext } from '../../model/execution-context';
import type { ToolView } from '../../toolkit/tool-view';
import { McpRequestError, mcpErrorOf, pageOf, RESOURCE_NOT_FOUND } from './mcp-catalog-support';
import type { ClientRequestHandler } from '../../model/client-requests';
import { McpClientRequests, type McpClientLink } from './mcp-client-requests';
import { requestContext, type McpCallSettings } from './mcp-tool-call';
import { requestLabel, type RequestSlots } from './request-slots';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * @internal `resources/read` of `uri` through `view` (`client` answers what the resource asks):
 * its contents, or the MCP error for it (a resource the view cannot reach is `notFound`, with the
 * URI as `data.uri`).
 */
export async function readResource(
  view: ToolView,
  uri: string,
  signal: AbortSignal,
  context: ToolExecutionContext | undefined,
  notFound: number,
  client?: ClientRequestHandler,
): Promise<ReadResourceResult> {
  try {
    return (await view.resources.read(uri, { signal, ...(context ? { context } : {}), ...(client ? { client } : {}) })) as ReadResourceResult;
  } catch (error) {
    const failure = mcpErrorOf(error, notFound);
    throw failure.code === notFound ? new McpRequestError(notFound, failure.message, { uri }) : failure;
  }
}

/** The most resources one MCP connection may subscribe to at once. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 1_000;

/**
 * @internal The resources side of one MCP connection: `resources/list` and
 * `resources/templates/list` (paginated), `resources/read` (a fixed resource or a template
 * match) through the view the connection serves, and subscriptions: `resources/subscribe` to a
 * URI the view can read, `notifications/resources/updated` when the application says it changed
 * (`view.resources.notifyUpdated(uri)`) and the view can still read it, `list_changed` when what
 * the view lists changes. A resource the view cannot reach is "not found" on every path. A read
 * holds one of the connection's `slots`.
 */
export class McpResources {
  private readonly subscribed = new Set<string>();

  constructor(
    private readonly server: Server,
    settings: McpCallSettings,
    viewFor: (sessionId: string | undefined) => ToolView,
    slots: RequestSlots,
    link: McpClientLink,
  ) {
    server.setRequestHandler(ListResourcesRequestSchema, (request, extra) => pageOf('resources', viewFor(extra.sessionId).resources.list(), request.params?.cursor));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) =>
      pageOf('resourceTemplates', viewFor(extra.sessionId).resources.templates(), request.params?.cursor),
    );
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra: Extra) => {
      const { uri } = request.params;
      const client = new McpClientRequests(link, extra);
      return slots.run('', requestLabel('resources/read', uri), () =>
        readResource(viewFor(extra.sessionId), uri, extra.signal, requestContext(settings, extra), RESOURCE_NOT_FOUND, client),
      );
    });
    server.setRequestHandler(SubscribeRequestSchema, (request, extra) => {
      const { uri } = request.params;
      if (!viewFor(extra.sessionId).resources.has(uri)) throw new McpRequestError(RESOURCE_NOT_FOUND, `Resource '${uri.slice(0, 200)}' not found.`);
      if (!this.subscribed.has(uri) && this.subscribed.size >= MAX_RESOURCE_SUBSCRIPTIONS) {
        throw new McpRequestError(ErrorCode.InvalidRequest, `Too many subscriptions: at most ${MAX_RESOURCE_SUBSCRIPTIONS} per connection; unsubscribe from some first.`);
      }
      this.subscribed.add(uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      this.subscribed.delete(request.params.uri);
      return {};
    });
  }

  /** Follows `view` (until unsubscribed): list changes and updates of subscribed resources become notifications. */
  follow(view: ToolView): Subscription {
    const resources = view.resources;
    const server = this.server;
    const subscription = resources.listChanged$.subscribe(() => {
      if (server.transport) server.sendResourceListChanged().catch(() => undefined);
    });
    subscription.add(
      resources.updated$.subscribe((uri) => {
        if (server.transport && this.subscribed.has(uri) && resources.has(uri)) server.sendResourceUpdated({ uri }).catch(() => undefined);
      }),
    );
    subscription.add(() => this.subscribed.clear());
    return subscription;
  }
}
