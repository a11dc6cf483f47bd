import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolRequest, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool } from '../../model/agent-tool';
import type { ToolRisk } from '../../model/tool-types';
import type { McpImportReport, McpImportSkipped } from './mcp-import-report';
import type { McpImportSdk2Client } from './sdk2-client';

/**
 * What {@link importMcpTools} uses of a `Client` of the MCP SDK 1.x (`@modelcontextprotocol/sdk`):
 * its public methods, so any connected `Client` fits, whichever build of the SDK made it. Tools
 * are listed with `request` (`tools/list`), not `listTools`, which would compile every output
 * schema a server lists before anything is checked. The SDK ships a CommonJS and an ES module
 * build whose `Client` classes have private members, which makes them different types to the
 * compiler; toolwright's types name the CommonJS one, and an ES module's `Client` (from
 * `@modelcontextprotocol/sdk/client/index.js` under `"type": "module"`) matches this shape too.
 *
 * @example
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * const client: McpImportSdk1Client = new Client({ name: 'my-agent', version: '1.0.0' });
 */
export type McpImportSdk1Client = Pick<Client, 'request' | 'callTool' | 'setNotificationHandler' | 'removeNotificationHandler' | 'getServerVersion'> & {
  /** The server's capabilities (whether it runs tools as MCP tasks). */
  getServerCapabilities?: Client['getServerCapabilities'] | undefined;
  /** The SDK's task API (SDK 1.23 and later): tools the server runs only as tasks are called through it. */
  readonly experimental?: { readonly tasks?: McpImportTaskApi | undefined } | undefined;
};

/**
 * What {@link importMcpTools} accepts: a connected `Client` of the MCP SDK 1.x
 * ({@link McpImportSdk1Client}) or of the MCP SDK 2 (`@modelcontextprotocol/client`,
 * {@link McpImportSdk2Client}), whichever protocol revision it negotiated.
 *
 * @example
 * import { Client } from '@modelcontextprotocol/client';
 * const client: McpImportClient = new Client({ name: 'my-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
 */
export type McpImportClient = McpImportSdk1Client | McpImportSdk2Client;

/**
 * One message of an SDK client's `callToolStream`: the task was created, its status changed, its
 * result, or an error.
 *
 * @example
 * for await (const m of client.experimental.tasks.callToolStream({ name: 'research', arguments: {} })) if (m.type === 'result') return m.result;
 */
export type McpTaskStreamMessage =
  | { readonly type: 'taskCreated'; readonly task: { readonly taskId: string } }
  | { readonly type: 'taskStatus'; readonly task: { readonly status: string; readonly statusMessage?: string | undefined } }
  | { readonly type: 'result'; readonly result: unknown }
  | { readonly type: 'error'; readonly error: Error };

/**
 * What {@link importMcpTools} uses of an SDK client's `experimental.tasks` (the methods of the
 * SDK's `ExperimentalClientTasks`), to call tools whose `execution.taskSupport` is `'required'`.
 *
 * @example
 * const api: McpImportTaskApi | undefined = client.experimental?.tasks;
 */
export interface McpImportTaskApi {
  /** Calls a tool as a task and yields its creation, status changes and result (or error). */
  callToolStream(params: CallToolRequest['params'], resultSchema?: undefined, options?: RequestOptions): AsyncGenerator<McpTaskStreamMessage, void, void>;
  /** Cancels a task (`tasks/cancel`). */
  cancelTask(taskId: string, options?: RequestOptions): Promise<unknown>;
}

/**
 * Options of {@link importMcpTools}.
 *
 * @example
 * importMcpTools(client, toolkit, { group: 'github', prefix: 'gh', filter: (t) => !t.annotations?.destructiveHint });
 */
export interface McpImportOptions {
  /** The toolkit group the tools join (created active when missing). Without it they are always active. */
  group?: string | undefined;
  /** The description of a group this call creates. */
  groupDescription?: string | undefined;
  /** Prepended to every remote name with `_` (`gh` + `search` → `gh_search`). */
  prefix?: string | undefined;
  /** Which remote tools to import: a predicate, or a list of remote names. Default: all. */
  filter?: ((tool: McpTool) => boolean) | readonly string[] | undefined;
  /** Per-call request timeout towards the remote in ms (the SDK's default is 60 s); progress resets it. */
  requestTimeoutMs?: number | undefined;
  /** Follow the remote's `notifications/tools/list_changed` (default `true`). */
  followListChanged?: boolean | undefined;
  /**
   * The most `tools/list` pages one listing follows (default 100). A server whose `nextCursor`
   * chain goes on fails the listing with `IMPORT_LIMIT_EXCEEDED`.
   */
  maxPages?: number | undefined;
  /** The most tools one listing may hold, counted before `filter` (default 1000); more fail it with `IMPORT_LIMIT_EXCEEDED`. */
  maxTools?: number | undefined;
  /** The whole time one listing (every page) may take in ms (default 30 000); past it the listing fails with `IMPORT_LIMIT_EXCEEDED`. */
  timeoutMs?: number | undefined;
  /**
   * The largest definition of one remote tool, as JSON characters: description, title, input and
   * output schema, annotations (default 100 000). A larger tool is skipped (see `skipped`).
   */
  maxSchemaBytes?: number | undefined;
  /** The deepest nesting of one remote tool's schemas (default 64 levels of JSON nesting). A deeper tool is skipped. */
  maxSchemaDepth?: number | undefined;
  /**
   * The most objects and arrays one remote tool's input and output schemas may hold together
   * (default 1000): what compiling its validator on its first call, and every pass over it, costs.
   * A tool with more is skipped.
   */
  maxSchemaNodes?: number | undefined;
  /**
   * The most JSON characters of definitions (as `maxSchemaBytes` counts them) all the tools of one
   * import may hold together (default 4 MiB): what an import, and each refresh, may spend and keep.
   * Tools past it, in listing order, are skipped (`over-budget`) and named in the report.
   */
  maxCatalogBytes?: number | undefined;
  /**
   * The most content parts one imported result keeps (default 100); the rest are dropped and a
   * text part says how many.
   */
  maxContentParts?: number | undefined;
  /**
   * The most content one imported result keeps, as decoded bytes of images, audio and blobs plus
   * characters of text (default 10 MiB). Past it a text is cut (head and tail kept) and a binary
   * part is replaced by a text part naming it and this limit. The result's `structuredContent` is
   * held to the same limit as JSON text, on its own: a larger one is dropped (no `data`) and a text
   * part names its size and this limit.
   */
  maxContentBytes?: number | undefined;
  /**
   * Rely on the server's tool annotations (default `false`). They are hints the server makes
   * about itself: kept either way and served again by `createMcpServer`, but unless you trust the
   * server, an imported tool's `behaviour.annotations` — what toolwright and your hooks and
   * approval rules read — are MCP's defaults for a tool of unknown behaviour (`readOnly: false`,
   * `destructive: true`, `idempotent: false`, `openWorld: true`): a server claiming `readOnlyHint`
   * or `idempotentHint` makes no hook skip it and no timed-out call retry.
   */
  trustAnnotations?: boolean | undefined;
  /**
   * The risk level of every imported tool (approval policies' `minRisk` keys on it). Yours to
   * set: it is never taken from the server. Default: none.
   */
  risk?: ToolRisk | undefined;
  /**
   * Receives the {@link McpImportReport} after the first listing and after every refresh (the
   * remote's `list_changed` included). A throw (or a rejected promise) becomes a
   * `TOOLWRIGHT_CALLBACK_FAILED` process warning; the import goes on.
   */
  onReport?: ((report: McpImportReport) => void) | undefined;
}

/**
 * Defaults of {@link McpImportOptions}' bounds: what a remote MCP server may make an import
 * hold or spend.
 *
 * @example
 * importMcpTools(client, toolkit, { maxTools: MCP_IMPORT_LIMITS.maxTools * 2 });
 */
export const MCP_IMPORT_LIMITS: Readonly<
  Required<
    Pick<
      McpImportOptions,
      'maxPages' | 'maxTools' | 'timeoutMs' | 'maxSchemaBytes' | 'maxSchemaDepth' | 'maxSchemaNodes' | 'maxCatalogBytes' | 'maxContentParts' | 'maxContentBytes'
    >
  >
> = Object.freeze({
  maxPages: 100,
  maxTools: 1000,
  timeoutMs: 30_000,
  maxSchemaBytes: 100_000,
  maxSchemaDepth: 64,
  maxSchemaNodes: 1000,
  maxCatalogBytes: 4 * 1024 * 1024,
  maxContentParts: 100,
  maxContentBytes: 10 * 1024 * 1024,
});

/**
 * What {@link importMcpTools} returns: the imported tools, kept in sync with the remote.
 *
 * @example
 * const imported = await importMcpTools(client, toolkit, { group: 'remote' });
 * imported.tools.map((t) => t.name);
 * await imported.close();   // unregisters them; close the client yourself
 */
export interface McpImportHandle {
  /** The imported tools as registered in the toolkit. */
  readonly tools: readonly AgentTool[];
  /** Local tool name by remote tool name. */
  readonly names: ReadonlyMap<string, string>;
  /** Remote tools the toolkit refused (invalid schema, …), from the last refresh. */
  readonly skipped: readonly McpImportSkipped[];
  /** What the last listing imported (with what changed) and skipped (with why). */
  readonly report: McpImportReport;
  /** Lists the remote tools again and adds, updates or removes local ones to match. */
  refresh(): Promise<void>;
  /** Unregisters the imported tools and stops following the remote. The client stays open. */
  close(): Promise<void>;
}

/**
 * @internal The value of one of `options`' bounds, or its default.
 *
 * @example
 * importLimit(options, 'maxTools'); // 1000 unless the options say otherwise
 */
export function importLimit(options: McpImportOptions, name: keyof typeof MCP_IMPORT_LIMITS): number {
  return options[name] ?? MCP_IMPORT_LIMITS[name];
}
