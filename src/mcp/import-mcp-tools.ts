import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool, ToolBehaviour, ToolCallContext } from '../common/agent-tool';
import type { ObjectJsonSchema } from '../common/json-schema';
import type { ToolAnnotations } from '../common/tool-types';
import type { Toolkit } from '../toolkit/toolkit';
import { MCP_TOOL_OPTIONS, type McpToolOptions } from './mcp-tool-options';
import { fromCallToolResult } from './remote-result';
import { portableToolName } from './tool-names';

/**
 * Options of {@link importMcpTools}.
 *
 * @example
 * importMcpTools(client, toolkit, { group: 'github', prefix: 'gh', filter: (t) => !t.annotations?.destructiveHint });
 */
export interface McpImportOptions {
  /** The toolkit group the tools join (created active when missing). Without it they are always active. */
  group?: string;
  /** The description of a group this call creates. */
  groupDescription?: string;
  /** Prepended to every remote name with `_` (`gh` + `search` → `gh_search`). */
  prefix?: string;
  /** Which remote tools to import: a predicate, or a list of remote names. Default: all. */
  filter?: ((tool: McpTool) => boolean) | readonly string[];
  /** Per-call request timeout towards the remote in ms (the SDK's default is 60 s); progress resets it. */
  requestTimeoutMs?: number;
  /** Follow the remote's `notifications/tools/list_changed` (default `true`). */
  followListChanged?: boolean;
}

/**
 * A remote tool that could not be imported, and why.
 *
 * @example
 * for (const { name, reason } of imported.skipped) console.error(`skipped ${name}: ${reason}`);
 */
export interface McpImportSkipped {
  /** The remote tool's name. */
  readonly name: string;
  /** Why it was skipped (e.g. its input schema is not valid JSON Schema). */
  readonly reason: string;
}

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
  /** Lists the remote tools again and adds, updates or removes local ones to match. */
  refresh(): Promise<void>;
  /** Unregisters the imported tools and stops following the remote. The client stays open. */
  close(): Promise<void>;
}

type NotificationHandler = (notification: unknown) => Promise<void>;
const LIST_CHANGED = 'notifications/tools/list_changed';

interface Imported {
  readonly local: string;
  readonly fingerprint: string;
  readonly tool: AgentTool;
}

function fingerprint(tool: McpTool): string {
  return JSON.stringify([tool.description, tool.title, tool.inputSchema, tool.outputSchema, tool.annotations]);
}

function annotationsOf(tool: McpTool): ToolAnnotations | undefined {
  const a = tool.annotations;
  if (!a) return undefined;
  const out: ToolAnnotations = {};
  if (a.readOnlyHint !== undefined) out.readOnly = a.readOnlyHint;
  if (a.destructiveHint !== undefined) out.destructive = a.destructiveHint;
  if (a.idempotentHint !== undefined) out.idempotent = a.idempotentHint;
  if (a.openWorldHint !== undefined) out.openWorld = a.openWorldHint;
  return Object.keys(out).length ? out : undefined;
}

function parametersOf(tool: McpTool): ObjectJsonSchema {
  const { $schema: _dropped, ...schema } = tool.inputSchema as Record<string, unknown> & { properties?: ObjectJsonSchema['properties'] };
  return { ...schema, type: 'object', properties: schema.properties ?? {} } as ObjectJsonSchema;
}

class McpImport implements McpImportHandle {
  private readonly imported = new Map<string, Imported>();
  private skippedList: McpImportSkipped[] = [];
  private running?: Promise<void>;
  private again = false;
  private closed = false;
  private handlers?: Map<string, NotificationHandler>;
  private previous?: NotificationHandler;
  private ours?: NotificationHandler;

  constructor(
    private readonly client: Client,
    private readonly toolkit: Toolkit,
    private readonly options: McpImportOptions,
  ) {}

  get tools(): readonly AgentTool[] {
    return [...this.imported.values()].map((i) => i.tool);
  }

  get names(): ReadonlyMap<string, string> {
    return new Map([...this.imported].map(([remote, i]) => [remote, i.local]));
  }

  get skipped(): readonly McpImportSkipped[] {
    return this.skippedList;
  }

  follow(): void {
    // chain any handler already installed (the Client's own `listChanged` option, another import)
    const handlers = (this.client as unknown as { _notificationHandlers?: unknown })._notificationHandlers;
    if (handlers instanceof Map) {
      this.handlers = handlers as Map<string, NotificationHandler>;
      this.previous = this.handlers.get(LIST_CHANGED);
    }
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, async (notification) => {
      if (this.previous) await this.previous(notification).catch(() => undefined);
      if (!this.closed) this.refresh().catch(() => undefined);
    });
    this.ours = this.handlers?.get(LIST_CHANGED);
  }

  refresh(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async (): Promise<void> => {
      try {
        do {
          this.again = false;
          await this.sync();
        } while (this.again && !this.closed);
      } finally {
        this.running = undefined;
      }
    };
    return (this.running = run());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.running?.catch(() => undefined);
    this.closed = true;
    for (const { local } of this.imported.values()) this.toolkit.unregisterTool(local);
    this.imported.clear();
    if (this.handlers && this.ours && this.handlers.get(LIST_CHANGED) === this.ours) {
      if (this.previous) this.handlers.set(LIST_CHANGED, this.previous);
      else this.client.removeNotificationHandler(LIST_CHANGED);
    }
  }

  private async listRemote(): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor !== undefined ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const { filter } = this.options;
    if (!filter) return tools;
    if (typeof filter === 'function') return tools.filter((t) => filter(t));
    const names = new Set(filter);
    return tools.filter((t) => names.has(t.name));
  }

  private async sync(): Promise<void> {
    const remote = await this.listRemote();
    if (this.closed) return;
    const wanted = new Map(remote.map((t) => [t.name, t]));
    for (const [name, entry] of [...this.imported]) {
      const next = wanted.get(name);
      if (next && fingerprint(next) === entry.fingerprint) continue;
      this.toolkit.unregisterTool(entry.local);
      this.imported.delete(name);
    }
    const fresh: { remote: McpTool; imported: Imported }[] = [];
    const reserved = new Set<string>();
    for (const tool of remote) {
      if (this.imported.has(tool.name)) continue;
      const local = portableToolName(tool.name, this.options.prefix, (n) => reserved.has(n) || this.toolkit.getTool(n) !== undefined);
      reserved.add(local);
      fresh.push({ remote: tool, imported: { local, fingerprint: fingerprint(tool), tool: this.agentTool(tool, local) } });
    }
    this.skippedList = [];
    if (!fresh.length) return;
    const group = this.options.group;
    if (group !== undefined && !this.toolkit.getToolGroups().some((g) => g.name === group)) {
      this.toolkit.createToolGroup(group, this.options.groupDescription ?? `Tools imported from MCP server ${this.serverName()}`, true);
    }
    const registerOptions = group !== undefined ? { group } : {};
    try {
      // one registration: one change notification for the whole batch
      const registration = this.toolkit.registration();
      for (const { imported } of fresh) registration.tool(imported.tool);
      if (group !== undefined) registration.group(group);
      registration.apply();
      for (const { remote: tool, imported } of fresh) this.imported.set(tool.name, imported);
    } catch {
      for (const { remote: tool, imported } of fresh) {
        try {
          this.toolkit.registerTool(imported.tool, registerOptions);
          this.imported.set(tool.name, imported);
        } catch (e) {
          this.skippedList.push({ name: tool.name, reason: e instanceof Error ? e.message : String(e) });
        }
      }
    }
  }

  private serverName(): string {
    return this.client.getServerVersion()?.name ?? 'server';
  }

  private agentTool(remote: McpTool, local: string): AgentTool {
    const { client } = this;
    const timeout = this.options.requestTimeoutMs;
    const annotations = annotationsOf(remote);
    const behaviour: ToolBehaviour = { tags: ['mcp'], ...(annotations ? { annotations } : {}) };
    const mcpOptions: McpToolOptions = {
      ...(remote.title ?? remote.annotations?.title ? { title: remote.title ?? remote.annotations?.title } : {}),
      ...(remote.outputSchema ? { outputSchema: remote.outputSchema as ObjectJsonSchema } : {}),
    };
    const tool: AgentTool & { [MCP_TOOL_OPTIONS]?: McpToolOptions } = {
      name: local,
      description: remote.description || remote.title || `Tool '${remote.name}' of MCP server ${this.serverName()}.`,
      parameters: parametersOf(remote),
      behaviour,
      execute: async (args: Record<string, unknown>, ctx: ToolCallContext) => {
        const result = await client.callTool({ name: remote.name, arguments: args }, undefined, {
          signal: ctx.signal,
          onprogress: (p) =>
            ctx.emit({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
          resetTimeoutOnProgress: true,
          ...(timeout !== undefined ? { timeout } : {}),
        });
        return fromCallToolResult(result);
      },
    };
    if (Object.keys(mcpOptions).length) Object.defineProperty(tool, MCP_TOOL_OPTIONS, { value: mcpOptions, enumerable: false });
    return tool;
  }
}

/**
 * Registers the tools of a connected MCP server (an SDK `Client`) into a toolkit: each remote
 * tool becomes an `AgentTool` with a name every provider accepts (`prefix_name`, invalid
 * characters as `_`, shortened with a hash when too long or taken), its remote JSON Schema and
 * annotations. Calls go to the remote with the toolkit's `AbortSignal` (cancellation) and its
 * progress (`ToolEmitter`-style `ctx.emit`); results map text → `forLLM`, `structuredContent` →
 * `data`, `isError` → an error result. The import follows the remote's `list_changed`.
 *
 * @example
 * const client = new Client({ name: 'my-agent', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'npx', args: ['-y', 'some-mcp-server'] }));
 * const github = await importMcpTools(client, toolkit, { group: 'github', prefix: 'gh' });
 * toolkit.updateToolGroups(['github'], false); // off until needed
 * @throws whatever `client.listTools()` throws (not connected, protocol errors).
 */
export async function importMcpTools(client: Client, toolkit: Toolkit, options: McpImportOptions = {}): Promise<McpImportHandle> {
  const handle = new McpImport(client, toolkit, options);
  if (options.followListChanged !== false) handle.follow();
  try {
    await handle.refresh();
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}
