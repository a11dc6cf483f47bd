/**
 * The part of an MCP SDK 2 `Client` (`@modelcontextprotocol/client`) that `importMcpTools` uses,
 * written out as plain shapes: toolwright's types do not name the SDK 2 package, so a project
 * that has only the SDK 1.x installed type-checks as before.
 */

/**
 * A progress notification's values, as an SDK 2 client hands them to `onprogress`.
 *
 * @example
 * const onprogress = (p: McpImportSdk2Progress) => console.log(`${p.progress}/${p.total ?? '?'}`);
 */
export interface McpImportSdk2Progress {
  /** How far the call is. */
  readonly progress: number;
  /** Out of how much, when known. */
  readonly total?: number | undefined;
  /** What the server is doing. */
  readonly message?: string | undefined;
}

/**
 * The options of one request the import sends through an SDK 2 client (a subset of the SDK's
 * `RequestOptions` and `CallToolRequestOptions`).
 *
 * @example
 * const options: McpImportSdk2RequestOptions = { signal, timeout: 30_000, resetTimeoutOnProgress: true };
 */
export interface McpImportSdk2RequestOptions {
  /** Aborts the request. */
  readonly signal?: AbortSignal | undefined;
  /** Per-request timeout in ms. */
  readonly timeout?: number | undefined;
  /** Receives the request's progress notifications. */
  readonly onprogress?: ((progress: McpImportSdk2Progress) => void) | undefined;
  /** Whether progress restarts the timeout. */
  readonly resetTimeoutOnProgress?: boolean | undefined;
  /** Hands an `input_required` answer (protocol 2026-07-28) back instead of answering it through the client's handlers. */
  readonly allowInputRequired?: boolean | undefined;
  /** The tool's definition, for the `Mcp-Param-*` headers a 2026-07-28 server may require (`tools/call` only). */
  readonly toolDefinition?: { readonly name: string; readonly inputSchema: object } | undefined;
}

/**
 * A result schema in the Standard Schema form the SDK 2 `request()` takes for the methods it has
 * no schema of its own for (the 2025-11-25 task methods).
 *
 * @example
 * const anything: McpImportSdk2ResultSchema = { '~standard': { version: 1, vendor: 'toolwright', validate: (value) => ({ value }) } };
 */
export interface McpImportSdk2ResultSchema {
  /** The Standard Schema interface. */
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): { readonly value: unknown } | { readonly issues: readonly { readonly message: string }[] };
  };
}

/**
 * An open `subscriptions/listen` stream of an SDK 2 client (protocol 2026-07-28).
 *
 * @example
 * const subscription: McpImportSdk2Subscription = await client.listen({ toolsListChanged: true });
 * await subscription.close();
 */
export interface McpImportSdk2Subscription {
  /** Ends the subscription. */
  close(): Promise<void>;
}

/**
 * What {@link importMcpTools} uses of a `Client` of the MCP SDK 2 (`@modelcontextprotocol/client`
 * 2.4 or later), connected with any `versionNegotiation`: the 2025-11-25 handshake (its default),
 * `{ mode: 'auto' }` or a pin to 2026-07-28. The import reads the revision the client negotiated
 * (`getNegotiatedProtocolVersion`) and talks that revision: on 2026-07-28 each call declares the
 * capabilities of the importing call's own `ClientRequests` (elicitation, sampling) in its `_meta`
 * instead of the client's, answers the server's `input_required` results through them, and
 * `list_changed` is followed through `subscriptions/listen`.
 *
 * @example
 * import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
 * const client = new Client({ name: 'my-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
 * await client.connect(new StreamableHTTPClientTransport(new URL('https://tools.example.com/mcp')));
 * const remote: McpImportSdk2Client = client;
 */
export interface McpImportSdk2Client {
  /** `'legacy'` (2025-11-25 and older) or `'modern'` (2026-07-28); what tells an SDK 2 client. */
  getProtocolEra(): string | undefined;
  /** The protocol revision the client negotiated. */
  getNegotiatedProtocolVersion(): string | undefined;
  /** The server's name and version. */
  getServerVersion(): { readonly name: string } | undefined;
  /** The server's capabilities. */
  getServerCapabilities(): object | undefined;
  /** Sends `tools/list` (one page). */
  request(request: { method: 'tools/list'; params?: { cursor?: string } }, options?: McpImportSdk2RequestOptions): Promise<unknown>;
  /** Sends a request whose result the SDK has no schema for (the 2025-11-25 task methods). */
  request(request: { method: string; params?: Record<string, unknown> }, resultSchema: McpImportSdk2ResultSchema, options?: McpImportSdk2RequestOptions): Promise<unknown>;
  /** Calls a tool (`tools/call`). */
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown>; inputResponses?: Record<string, unknown>; requestState?: string },
    options?: McpImportSdk2RequestOptions,
  ): Promise<unknown>;
  /** Installs the handler of a notification. */
  setNotificationHandler(method: 'notifications/tools/list_changed' | 'notifications/progress', handler: (notification: unknown) => void | Promise<void>): void;
  /** Removes the handler of a notification. */
  removeNotificationHandler(method: string): void;
  /** Opens a `subscriptions/listen` stream (protocol 2026-07-28). */
  listen(filter: { toolsListChanged?: boolean }, options?: McpImportSdk2RequestOptions): Promise<McpImportSdk2Subscription>;
}
