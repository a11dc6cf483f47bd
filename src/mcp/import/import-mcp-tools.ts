import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool } from '../../model/agent-tool';
import { EQUIP_TOOL_GROUPS, INVOKE_SKILL, LIST_SKILLS } from '../../toolkit/meta-tool-names';
import type { Toolkit } from '../../toolkit/toolkit';
import { boundInput, quoteInput } from '../../utils/quote-input';
import { describeThrown } from '../../errors/toolkit-error';
import { listRemoteTools } from './list-remote-tools';
import { importLimit, type McpImportClient, type McpImportHandle, type McpImportOptions } from './mcp-import-options';
import type { McpImportedTool, McpImportReport, McpImportSkipped } from './mcp-import-report';
import { Slices } from './import-slices';
import { remoteConnection } from './connect-remote';
import type { RemoteConnection } from './remote-connection';
import { MAX_REMOTE_NAME, measure, remoteNameRefusal, remoteToolRefusal, type Measured } from './remote-tool-checks';
import { prepareInput, remoteAgentTool, type PreparedInput } from './remote-tool';
import { foldedName, joinedName, portableToolName, renameNote } from '../shared/tool-names';

/** The longest registration error a `skipped` reason quotes (it may quote the remote schema). */
const MAX_SKIP_REASON_CHARS = 300;

interface Imported extends Measured {
  readonly local: string;
  /** Its input schema made ready (reused by a refresh that finds the same input schema). */
  readonly input: PreparedInput;
  readonly tool: AgentTool;
  /** What the import changed of the remote definition (see `McpImportedTool.changes`). */
  readonly changes: readonly string[];
}

/** Calls the application's `onReport`; what it throws or rejects with becomes a process warning. */
function deliverReport(onReport: McpImportOptions['onReport'], report: McpImportReport): void {
  const warn = (error: unknown): void =>
    process.emitWarning(`importMcpTools' onReport threw (${describeThrown(error)}); the import goes on.`, { code: 'TOOLWRIGHT_CALLBACK_FAILED' });
  try {
    const returned: unknown = onReport?.(report);
    if (returned instanceof Promise) returned.catch(warn);
  } catch (error) {
    warn(error);
  }
}

class McpImport implements McpImportHandle {
  private readonly imported = new Map<string, Imported>();
  private skippedList: McpImportSkipped[] = [];
  private lastReport: McpImportReport = Object.freeze({ server: '', imported: [], skipped: [] });
  private running?: Promise<void>;
  private again = false;
  private closed = false;
  private unfollow?: () => Promise<void>;

  constructor(
    private readonly remote: RemoteConnection,
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

  get report(): McpImportReport {
    return this.lastReport;
  }

  follow(): void {
    this.unfollow = this.remote.follow(() => {
      if (!this.closed) this.refresh().catch(() => undefined);
    });
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
    await this.unfollow?.();
  }

  private async sync(): Promise<void> {
    const remote = await listRemoteTools(this.remote, this.options, this.serverName());
    if (this.closed) return;
    const { options } = this;
    const slices = new Slices();
    // the first of several tools listed under one name is the one imported; each is measured (hashed) once
    const measured = new Map<string, Measured | undefined>();
    for (const tool of remote) {
      if (measured.has(tool.name) || remoteNameRefusal(tool) !== undefined) continue;
      await slices.pause();
      if (this.closed) return;
      measured.set(tool.name, measure(tool));
    }
    // input schemas already made ready, by hash: a tool whose input schema did not change is not processed again
    const inputs = new Map([...this.imported.values()].map((i) => [i.inputHash, i.input]));
    for (const [name, entry] of [...this.imported]) {
      if (measured.get(name)?.fingerprint === entry.fingerprint) continue;
      // each removal tells the toolkit's subscribers: a catalogue's worth of them is spread over slices
      await slices.pause();
      this.toolkit.unregisterTool(entry.local);
      this.imported.delete(name);
    }
    const fresh: { remote: McpTool; imported: Imported }[] = [];
    this.skippedList = [];
    const skip = (tool: McpTool, code: McpImportSkipped['code'], reason: string): void => {
      this.skippedList.push({ name: boundInput(String(tool.name), MAX_REMOTE_NAME), code, reason: boundInput(reason, MAX_SKIP_REASON_CHARS) });
    };
    // the toolkit's meta tools keep their names even before they are offered: a remote tool never poses as one
    const reserved = new Set<string>([LIST_SKILLS, INVOKE_SKILL, EQUIP_TOOL_GROUPS]);
    // names a reader takes for the same (case, NFKC): the tools already there keep theirs
    const ours = new Set([...this.imported.values()].map((i) => i.local));
    const folded = new Map<string, string>();
    for (const name of [...reserved, ...this.toolkit.getAllTools().map((t) => t.name)]) if (!ours.has(name)) folded.set(foldedName(name), name);
    /** True (and skipped) when `name` reads as a tool already there; an exact clash of a name written plainly is `exact`'s to allow (it gets a hash). */
    const confusable = (tool: McpTool, name: string, exact = false): boolean => {
      const other = folded.get(foldedName(name));
      if (other === undefined || (exact && other === name)) return false;
      const as = name !== tool.name ? ` (as ${quoteInput(name)})` : '';
      skip(tool, 'confusable-name', `its name ${quoteInput(tool.name)}${as} reads as the tool ${quoteInput(other)}: they differ only by case or Unicode compatibility forms (NFKC); that tool keeps its name`);
      return true;
    };
    const source = {
      remote: this.remote,
      serverName: this.serverName(),
      requestTimeoutMs: options.requestTimeoutMs,
      contentLimits: { maxParts: importLimit(options, 'maxContentParts'), maxBytes: importLimit(options, 'maxContentBytes') },
      trustAnnotations: options.trustAnnotations === true,
      risk: options.risk,
    };
    const budget = importLimit(options, 'maxCatalogBytes');
    let used = 0;
    const overBudget = (tool: McpTool, size: number): boolean => {
      if (used + size <= budget) return false;
      skip(tool, 'over-budget', `its definition (${size} characters of JSON) would take the import's tools past maxCatalogBytes (${budget}); the tools before it hold ${used}`);
      return true;
    };
    const listed = new Set<string>();
    const taskProblem = this.remote.taskProblem();
    for (const tool of remote) {
      if (listed.has(tool.name)) {
        skip(tool, 'duplicate-name', 'the server listed another tool of the same name before it');
        continue;
      }
      listed.add(tool.name);
      const kept = this.imported.get(tool.name);
      if (kept !== undefined) {
        if (overBudget(tool, kept.size) || confusable(tool, kept.local)) {
          this.toolkit.unregisterTool(kept.local);
          this.imported.delete(tool.name);
        } else {
          used += kept.size;
          folded.set(foldedName(kept.local), kept.local);
        }
        continue;
      }
      await slices.pause();
      if (this.closed) return;
      const m = measured.get(tool.name);
      const known = m !== undefined ? inputs.get(m.inputHash) : undefined;
      const { refusal, inputNodes } = remoteToolRefusal(tool, m, options, taskProblem, known?.nodes);
      if (refusal !== undefined || m === undefined) {
        if (refusal !== undefined) skip(tool, refusal.code, refusal.reason);
        continue;
      }
      if (overBudget(tool, m.size)) continue;
      if (confusable(tool, joinedName(tool.name, options.prefix), tool.name.normalize('NFKC') === tool.name)) continue;
      const local = portableToolName(tool.name, options.prefix, (n) => reserved.has(n) || this.toolkit.getTool(n) !== undefined);
      const input = known ?? prepareInput(tool, inputNodes);
      if (input.problem !== undefined) {
        skip(tool, 'invalid-definition', `its input schema is not a valid JSON Schema: ${input.problem}`);
        continue;
      }
      reserved.add(local);
      folded.set(foldedName(local), local);
      used += m.size;
      const { tool: agentTool, changes } = remoteAgentTool(tool, local, source, input);
      const renamed = renameNote(tool.name, options.prefix, local);
      const imported: Imported = { local, ...m, input, tool: agentTool, changes: renamed === undefined ? changes : [renamed, ...changes] };
      fresh.push({ remote: tool, imported });
    }
    if (fresh.length > 0) await this.register(fresh, skip, slices);
    this.publish(remote);
  }

  /**
   * Registers the new tools in batches that each fit a slice (one change notification per batch);
   * a batch the toolkit refuses is registered one by one, skipping the tools it refuses.
   */
  private async register(
    fresh: readonly { remote: McpTool; imported: Imported }[],
    skip: (tool: McpTool, code: McpImportSkipped['code'], reason: string) => void,
    slices: Slices,
  ): Promise<void> {
    const group = this.options.group;
    if (group !== undefined && !this.toolkit.getToolGroups().some((g) => g.name === group)) {
      this.toolkit.createToolGroup(group, this.options.groupDescription ?? `Tools imported from MCP server ${this.serverName()}`, true);
    }
    await slices.batches(fresh, (batch) => this.registerBatch(batch, group, skip));
  }

  private registerBatch(
    fresh: readonly { remote: McpTool; imported: Imported }[],
    group: string | undefined,
    skip: (tool: McpTool, code: McpImportSkipped['code'], reason: string) => void,
  ): void {
    const registerOptions = group !== undefined ? { group } : {};
    try {
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
          skip(tool, 'invalid-definition', e instanceof Error ? e.message : String(e));
        }
      }
    }
  }

  /** Makes the report of this listing (in listing order) and hands it to `onReport`. */
  private publish(remote: readonly McpTool[]): void {
    const imported: McpImportedTool[] = [];
    const seen = new Set<string>();
    for (const { name } of remote) {
      const entry = seen.has(name) ? undefined : this.imported.get(name);
      seen.add(name);
      if (entry !== undefined) imported.push(Object.freeze({ remote: name, local: entry.local, changes: Object.freeze([...entry.changes]) }));
    }
    const { protocolVersion } = this.remote;
    this.lastReport = Object.freeze({
      server: this.serverName(),
      ...(protocolVersion !== undefined ? { protocolVersion } : {}),
      imported: Object.freeze(imported),
      skipped: Object.freeze([...this.skippedList]),
    });
    if (this.options.onReport !== undefined) deliverReport(this.options.onReport, this.lastReport);
  }

  /** The remote's own name for itself (bounded: it ends up in descriptions and errors). */
  private serverName(): string {
    return boundInput(this.remote.serverName());
  }
}

/**
 * Registers the tools of a connected MCP server into a toolkit, through a `Client` of the MCP SDK
 * 1.x or of the MCP SDK 2 (`@modelcontextprotocol/client`) on the protocol revision it negotiated,
 * 2025-11-25 or 2026-07-28 (see {@link McpImportClient}; `report.protocolVersion` names it). Each remote
 * tool becomes an `AgentTool` with a name every provider accepts (`prefix_name`, invalid
 * characters as `_`, shortened with a hash when too long or taken), its remote JSON Schema, title,
 * output schema and annotations. Calls go to the remote with the toolkit's `AbortSignal`
 * (cancellation) and its progress (`ToolEmitter`-style `ctx.emit`); results keep their content
 * blocks as content parts with their annotations (`forLLM` holds only the text meant for the
 * model: content for the user only never reaches it), `structuredContent` → `data`, `isError` →
 * an error result. The import follows the remote's `list_changed` (under 2026-07-28 on a
 * `subscriptions/listen` stream). Under 2026-07-28 a server's `input_required` answer (it asks
 * for an elicitation or sampling before it goes on) is answered through the importing call's own
 * `ClientRequests` (`ctx.client`), and the call retried, at most 10 rounds of at most 8 requests.
 *
 * The remote is untrusted: a listing follows at most `maxPages` pages and holds at most
 * `maxTools` tools within `timeoutMs` ({@link MCP_IMPORT_LIMITS}); a tool larger than
 * `maxSchemaBytes`, nested deeper than `maxSchemaDepth`, named longer than 128 characters, with a
 * `pattern` that needs a backtracking engine (lookaround, backreferences), a `$ref` outside its
 * own schema or an `$id`, listed twice, or callable only as an MCP task (`execution.taskSupport:
 * 'required'`) is skipped. One result keeps at most `maxContentParts` parts and `maxContentBytes`
 * of content (longer texts are cut, larger binary parts replaced by a note). Its annotations are
 * served again by `createMcpServer` but relied on only with `trustAnnotations` (see
 * {@link McpImportOptions.trustAnnotations}). The handle's `report` (and `onReport`) says what was
 * imported under which name, what the import changed, and what it skipped and why.
 *
 * @example
 * import { Client } from '@modelcontextprotocol/client';
 * import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
 * const client = new Client({ name: 'my-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
 * await client.connect(new StdioClientTransport({ command: 'npx', args: ['-y', 'some-mcp-server'] }));
 * const github = await importMcpTools(client, toolkit, { group: 'github', prefix: 'gh', risk: 'high' });
 * for (const s of github.report.skipped) console.warn(`${s.name} not imported: ${s.reason}`);
 * toolkit.updateToolGroups(['github'], false); // off until needed
 * @throws ToolkitError `IMPORT_LIMIT_EXCEEDED` when the listing passes `maxPages`, `maxTools` or
 * `timeoutMs` (the message names the option; nothing is imported, and a `refresh()` that hits a
 * bound leaves the tools imported before); whatever the `tools/list` request throws (not connected,
 * protocol errors).
 */
export async function importMcpTools(client: McpImportClient, toolkit: Toolkit, options: McpImportOptions = {}): Promise<McpImportHandle> {
  const handle = new McpImport(remoteConnection(client), toolkit, options);
  if (options.followListChanged !== false) handle.follow();
  try {
    await handle.refresh();
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}
