import type { InputRequiredResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { ClientRequestHandler } from '../../../model/client-requests';
import type { ToolExecutionContext } from '../../../model/execution-context';
import type { ToolView } from '../../../toolkit/tool-view';
import { McpRequestError } from '../mcp-catalog-support';
import { complete, completionLabel, type CompletionParams } from '../mcp-completion';
import { getPrompt } from '../mcp-prompts';
import { readResource } from '../mcp-resources';
import { requestLabel, type RequestSlots } from '../request-slots';
import { RequestStateRefusal } from './request-state';
import type { McpRoundTrips, RoundRequest } from './round-trips';
import type { RequestStateBinding } from './request-state';

type ServerSdk = typeof import('@modelcontextprotocol/server');

/** JSON-RPC's invalid-params code: a 2026-07-28 server answers an unknown resource with it. */
const INVALID_PARAMS = -32602;
/** The `_meta` key of the capabilities a 2026-07-28 client declares with each request. */
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * @internal The capability a fault names when it is `CLIENT_CAPABILITY_MISSING` (something asked
 * the client for what its request did not declare): a 2026-07-28 server answers it with -32021.
 */
export function missingCapabilityOf(fault: { readonly code?: unknown; readonly message: string } | undefined): string | undefined {
  if (fault?.code !== 'CLIENT_CAPABILITY_MISSING') return undefined;
  return /did not declare the '(sampling|elicitation|roots)' capability/.exec(fault.message)?.[1];
}

/**
 * @internal One round of Multi Round-Trip Requests as the request `ctx` carries it: its signed
 * state, its answers, the capabilities its `_meta` declares, its signal.
 *
 * @throws RequestStateRefusal when the SDK dropped answers that were not bare response objects.
 */
export function roundRequestOf(ctx: ServerContext, binding: RequestStateBinding, replaySafe: boolean): RoundRequest {
  const request = ctx.mcpReq;
  const dropped = request.droppedInputResponseKeys ?? [];
  if (dropped.length > 0) throw new RequestStateRefusal(`Invalid inputResponses: ${dropped.length} answer(s) are not bare response objects.`);
  return {
    binding,
    requestState: request.requestState(),
    inputResponses: request.inputResponses,
    capabilities: request.envelope?.[CLIENT_CAPABILITIES_KEY as keyof typeof request.envelope],
    replaySafe,
    signal: request.signal,
  };
}

/** @internal What the catalog handlers of one 2026-07-28 request share with the server built for it. */
export interface ModernCatalogRequest {
  readonly sdk: ServerSdk;
  readonly trips: McpRoundTrips;
  readonly slots: RequestSlots;
  /** Whose requests this one counts against (`maxConcurrentCalls`). */
  readonly owner: string;
  /** Whom the request's signed round-trip state is bound to: its principal, or its conversation (the server's caller views). */
  readonly stateOwner: string | undefined;
  readonly viewOf: () => ToolView;
  readonly contextOf: (ctx: ServerContext) => ToolExecutionContext | undefined;
  /** The caching hints of a read. */
  readonly scope: () => { readonly ttlMs: number; readonly cacheScope: 'public' | 'private' };
}

/**
 * @internal `resources/read`, `prompts/get` and `completion/complete` of one 2026-07-28 request,
 * each holding one of its owner's `slots` while it runs. A resource or prompt that asks the client
 * (its injected `ClientRequests`) answers with Multi Round-Trip Requests as a tool does: the
 * method runs again from the start with the answers recorded so far, so it must have no side
 * effects (reads and prompts are reads); the signed state is bound to the principal and to the
 * prompt and its arguments, or to the resource's URI.
 */
export function serveModernCatalog(server: McpServer['server'], request: ModernCatalogRequest): void {
  const { slots, owner } = request;
  server.setRequestHandler('resources/read', (read, ctx) => {
    const { uri } = read.params;
    return slots.run(owner, requestLabel('resources/read', uri), async () => {
      const outcome = await askingRound(request, ctx, `resource:${uri}`, {}, (client, signal) =>
        readResource(request.viewOf(), uri, signal, request.contextOf(ctx), INVALID_PARAMS, client),
      );
      return 'resultType' in outcome ? outcome : { ...outcome, ...request.scope() };
    });
  });
  server.setRequestHandler('prompts/get', (get, ctx) => {
    const { name, arguments: args = {} } = get.params;
    return slots.run(owner, requestLabel('prompts/get', name), () =>
      askingRound(request, ctx, `prompt:${name}`, args, (client, signal) => getPrompt(request.viewOf(), name, args, signal, request.contextOf(ctx), client)),
    );
  });
  server.setRequestHandler('completion/complete', (completion, ctx) => {
    const params = completion.params as CompletionParams;
    return slots.run(owner, completionLabel(params), () => complete(request.viewOf(), params, ctx.mcpReq.signal, request.contextOf(ctx)));
  });
}

/**
 * One round of a read or prompt that may ask the client: its result, or `input_required` with
 * the questions and a fresh state. A refused state or answer is -32602; a question the request's
 * `_meta` did not declare the capability for, -32021.
 */
async function askingRound<T extends object>(
  request: ModernCatalogRequest,
  ctx: ServerContext,
  subject: string,
  args: Readonly<Record<string, unknown>>,
  run: (client: ClientRequestHandler, signal: AbortSignal) => Promise<T>,
): Promise<T | InputRequiredResult> {
  const { sdk } = request;
  try {
    const outcome = await request.trips.run<T | undefined>(
      roundRequestOf(ctx, { principal: request.stateOwner, tool: subject, arguments: args }, true),
      async (client, signal) => {
        try {
          return await run(client, signal);
        } catch (error) {
          // the round ended (the method was stopped to ask) or an answer was refused: the outcome says which
          if (client.pending.length > 0 || client.refusal !== undefined) return undefined;
          throw error;
        }
      },
      (message) => {
        throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, message);
      },
    );
    if (outcome.kind === 'input_required') return { resultType: 'input_required', inputRequests: outcome.inputRequests, requestState: outcome.requestState } as InputRequiredResult;
    return outcome.result as T;
  } catch (error) {
    if (error instanceof RequestStateRefusal) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, error.message);
    const missing = error instanceof McpRequestError ? missingCapabilityOf({ code: (error.data as { code?: unknown } | undefined)?.code, message: error.message }) : undefined;
    if (missing !== undefined) throw new sdk.MissingRequiredClientCapabilityError({ requiredCapabilities: { [missing]: {} } }, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
