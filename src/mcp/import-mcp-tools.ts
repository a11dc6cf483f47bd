import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool, ToolBehaviour, ToolCallContext } from '../common/agent-tool';
import type { ObjectJsonSchema } from '../common/json-schema';
import type { ToolAnnotations } from '../common/tool-types';
import { EQUIP_TOOL_GROUPS, INVOKE_SKILL, LIST_SKILLS } from '../toolkit/meta-tools';
import type { Toolkit } from '../toolkit/toolkit';
import { boundInput, quoteInput } from '../common/quote-input';
import { ToolkitError } from '../errors';
import { linearPatternProblem } from '../executor/linear-regexp';
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
  /**
   * The most `tools/list` pages one listing follows (default 100). A server whose `nextCursor`
   * chain goes on fails the listing with `IMPORT_LIMIT_EXCEEDED`.
   */
  maxPages?: number;
  /** The most tools one listing may hold, counted before `filter` (default 1000); more fail it with `IMPORT_LIMIT_EXCEEDED`. */
  maxTools?: number;
  /** The whole time one listing (every page) may take in ms (default 30 000); past it the listing fails with `IMPORT_LIMIT_EXCEEDED`. */
  timeoutMs?: number;
  /**
   * The largest definition of one remote tool, as JSON characters: description, title, input and
   * output schema, annotations (default 100 000). A larger tool is skipped (see `skipped`).
   */
  maxSchemaBytes?: number;
  /** The deepest nesting of one remote tool's schemas (default 64 levels of JSON nesting). A deeper tool is skipped. */
  maxSchemaDepth?: number;
}

/**
 * Defaults of {@link McpImportOptions}' bounds: what a remote MCP server may make an import
 * hold or spend.
 *
 * @example
 * importMcpTools(client, toolkit, { maxTools: MCP_IMPORT_LIMITS.maxTools * 2 });
 */
export const MCP_IMPORT_LIMITS: Readonly<Required<Pick<McpImportOptions, 'maxPages' | 'maxTools' | 'timeoutMs' | 'maxSchemaBytes' | 'maxSchemaDepth'>>> =
  Object.freeze({ maxPages: 100, maxTools: 1000, timeoutMs: 30_000, maxSchemaBytes: 100_000, maxSchemaDepth: 64 });

/** The longest remote name a tool may have (the MCP specification's limit). */
const MAX_REMOTE_NAME = 128;
/** The longest registration error a `skipped` reason quotes (it may quote the remote schema). */
const MAX_SKIP_REASON_CHARS = 300;

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
  readonly fingerprint: string | undefined;
  readonly tool: AgentTool;
}

/** The tool's definition as JSON text (what tells a changed tool), or `undefined` when it is too deep to write. */
function fingerprint(tool: McpTool): string | undefined {
  try {
    return JSON.stringify([tool.description, tool.title, tool.inputSchema, tool.outputSchema, tool.annotations]);
  } catch {
    return undefined;
  }
}

/** Schema keywords whose values are data, not schemas: no pattern or reference is looked for in them. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** Why a pattern of an imported schema is refused (it needs a backtracking engine), or `undefined`. */
function patternProblem(pattern: string): string | undefined {
  const problem = linearPatternProblem(pattern);
  return problem === undefined ? undefined : `its pattern ${quoteInput(pattern)} needs a backtracking regular expression engine (${boundInput(problem, 120)})`;
}

/**
 * Why a remote schema is not imported, or `undefined`: nested deeper than `maxDepth`, a `pattern`
 * or `patternProperties` key the linear-time engine cannot run, a `$ref` outside the schema
 * itself, or an `$id` (it would enter the toolkit's shared Ajv registry).
 */
function untrustedSchemaProblem(schema: unknown, maxDepth: number): string | undefined {
  const stack: { value: object; depth: number; data: boolean }[] = [];
  if (typeof schema === 'object' && schema !== null) stack.push({ value: schema, depth: 1, data: false });
  while (stack.length > 0) {
    const { value, depth, data } = stack.pop()!;
    if (depth > maxDepth) return `its schema nests deeper than ${maxDepth} levels (maxSchemaDepth)`;
    for (const [key, child] of Object.entries(value)) {
      if (!data && !Array.isArray(value)) {
        let problem: string | undefined;
        if (key === 'pattern' && typeof child === 'string') problem = patternProblem(child);
        else if (key === 'patternProperties' && typeof child === 'object' && child !== null) {
          for (const property of Object.keys(child)) if ((problem = patternProblem(property)) !== undefined) break;
        } else if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string' && !child.startsWith('#')) {
          problem = `its schema refers outside itself (${key} ${quoteInput(child)})`;
        } else if (key === '$id' && typeof child === 'string') problem = `its schema declares an $id (${quoteInput(child)})`;
        if (problem !== undefined) return problem;
      }
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1, data: data || DATA_KEYWORDS.has(key) });
    }
  }
  return undefined;
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

  private limit(name: keyof typeof MCP_IMPORT_LIMITS): number {
    return this.options[name] ?? MCP_IMPORT_LIMITS[name];
  }

  private limitExceeded(what: string, option: keyof typeof MCP_IMPORT_LIMITS, cause?: unknown): ToolkitError {
    return new ToolkitError(
      'IMPORT_LIMIT_EXCEEDED',
      `MCP server ${quoteInput(this.serverName())} ${what} (importMcpTools option ${option}: ${this.limit(option)}); nothing was imported or changed. ` +
        `Raise ${option} if the server is trusted to need it.`,
      cause !== undefined ? { cause } : {},
    );
  }

  /** Every remote tool, page after page, within `maxPages`, `maxTools` and `timeoutMs`. */
  private async listRemote(): Promise<McpTool[]> {
    const maxPages = this.limit('maxPages');
    const maxTools = this.limit('maxTools');
    const timeoutMs = this.limit('timeoutMs');
    const deadline = Date.now() + timeoutMs;
    // one controller per page: the SDK leaves its abort listener on the signal of every request
    let page: AbortController | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      page?.abort();
    }, timeoutMs);
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    let pages = 0;
    try {
      do {
        if (++pages > maxPages) throw this.limitExceeded(`listed more than ${maxPages} pages of tools`, 'maxPages');
        const left = deadline - Date.now();
        if (left <= 0) throw this.limitExceeded(`took longer than ${timeoutMs} ms to list its tools`, 'timeoutMs');
        page = new AbortController();
        let listed: Awaited<ReturnType<Client['listTools']>>;
        try {
          listed = await this.client.listTools(cursor !== undefined ? { cursor } : undefined, { signal: page.signal, timeout: left });
        } catch (error) {
          if (timedOut || Date.now() >= deadline) throw this.limitExceeded(`took longer than ${timeoutMs} ms to list its tools`, 'timeoutMs', error);
          throw error;
        }
        if (tools.length + listed.tools.length > maxTools) throw this.limitExceeded(`listed more than ${maxTools} tools`, 'maxTools');
        tools.push(...listed.tools);
        cursor = listed.nextCursor;
      } while (cursor !== undefined);
    } finally {
      clearTimeout(timer);
    }
    const { filter } = this.options;
    if (!filter) return tools;
    if (typeof filter === 'function') return tools.filter((t) => filter(t));
    const names = new Set(filter);
    return tools.filter((t) => names.has(t.name));
  }

  /** Why a remote tool is not imported (too large, too deep, untrusted patterns or references), or `undefined`. */
  private refusal(tool: McpTool, print: string | undefined): string | undefined {
    if (typeof tool.name !== 'string' || tool.name.length === 0 || tool.name.length > MAX_REMOTE_NAME) {
      return `its name is not 1-${MAX_REMOTE_NAME} characters long`;
    }
    const maxDepth = this.limit('maxSchemaDepth');
    if (print === undefined) return `its schema nests deeper than ${maxDepth} levels (maxSchemaDepth)`;
    const maxBytes = this.limit('maxSchemaBytes');
    if (print.length > maxBytes) return `its definition is ${print.length} characters of JSON, more than ${maxBytes} (maxSchemaBytes)`;
    return untrustedSchemaProblem(tool.inputSchema, maxDepth) ?? untrustedSchemaProblem(tool.outputSchema, maxDepth);
  }

  private async sync(): Promise<void> {
    const remote = await this.listRemote();
    if (this.closed) return;
    const wanted = new Map(remote.map((t) => [t.name, t]));
    for (const [name, entry] of [...this.imported]) {
      const next = wanted.get(name);
      if (next && entry.fingerprint !== undefined && fingerprint(next) === entry.fingerprint) continue;
      this.toolkit.unregisterTool(entry.local);
      this.imported.delete(name);
    }
    const fresh: { remote: McpTool; imported: Imported }[] = [];
    const refused: McpImportSkipped[] = [];
    // the toolkit's meta tools keep their names even before they are offered: a remote tool never poses as one
    const reserved = new Set<string>([LIST_SKILLS, INVOKE_SKILL, EQUIP_TOOL_GROUPS]);
    for (const tool of remote) {
      if (this.imported.has(tool.name)) continue;
      const print = fingerprint(tool);
      const refusal = this.refusal(tool, print);
      if (refusal !== undefined) {
        refused.push({ name: boundInput(String(tool.name), MAX_REMOTE_NAME), reason: refusal });
        continue;
      }
      const local = portableToolName(tool.name, this.options.prefix, (n) => reserved.has(n) || this.toolkit.getTool(n) !== undefined);
      reserved.add(local);
      fresh.push({ remote: tool, imported: { local, fingerprint: print, tool: this.agentTool(tool, local) } });
    }
    this.skippedList = refused;
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
          this.skippedList.push({ name: tool.name, reason: boundInput(e instanceof Error ? e.message : String(e), MAX_SKIP_REASON_CHARS) });
        }
      }
    }
  }

  /** The remote's own name for itself (bounded: it ends up in descriptions and errors). */
  private serverName(): string {
    return boundInput(this.client.getServerVersion()?.name ?? 'server');
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
 * The remote is untrusted: a listing follows at most `maxPages` pages and holds at most
 * `maxTools` tools within `timeoutMs` ({@link MCP_IMPORT_LIMITS}); a tool larger than
 * `maxSchemaBytes`, nested deeper than `maxSchemaDepth`, named longer than 128 characters, with a
 * `pattern` that needs a backtracking engine (lookaround, backreferences), a `$ref` outside its
 * own schema or an `$id` is skipped and listed in `skipped` with the reason.
 *
 * @example
 * const client = new Client({ name: 'my-agent', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'npx', args: ['-y', 'some-mcp-server'] }));
 * const github = await importMcpTools(client, toolkit, { group: 'github', prefix: 'gh' });
 * toolkit.updateToolGroups(['github'], false); // off until needed
 * @throws ToolkitError `IMPORT_LIMIT_EXCEEDED` when the listing passes `maxPages`, `maxTools` or
 * `timeoutMs` (the message names the option; nothing is imported, and a `refresh()` that hits a
 * bound leaves the tools imported before); whatever `client.listTools()` throws (not connected,
 * protocol errors).
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
