import type { ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool } from '../../model/agent-tool';
import type { ToolExecutionContext } from '../../model/execution-context';
import type { McpToolDefinition } from '../../schema/lowering';
import type { ToolView } from '../../toolkit/tool-view';
import type { McpTaskOptions } from './mcp-tasks';
import { hintsOf, metaOf, outputShapeOf, taskSupportOf, titleOf, type McpToolOptions, type OutputShape } from '../shared/mcp-tool-options';

interface ListCache {
  readonly definitions: readonly McpToolDefinition[];
  readonly result: ListToolsResult;
}

/**
 * @internal The `tools/list` answer of one MCP connection: the MCP definitions of the view's tools
 * that the request's caller may use (scopes, the toolkit's `authorize` rule awaited), with titles,
 * annotations, output schemas and `_meta` (the server's per-tool options win over the tool's
 * own), kept until the view's definitions change; and each tool's output shape, which call
 * results are checked against too.
 *
 * @example
 * const list = new McpToolList(options);
 * server.setRequestHandler(ListToolsRequestSchema, (_r, extra) => list.list(view, requestContext(options, extra)));
 */
export class McpToolList {
  private cache?: ListCache;
  private readonly shapes = new WeakMap<AgentTool, OutputShape | null>();

  /** `options.tools`: MCP-only details by tool name (read when needed); `options.tasks`: `false` serves no task support. */
  constructor(
    private readonly options: { readonly tools?: Readonly<Record<string, McpToolOptions>> | undefined; readonly tasks?: McpTaskOptions | false | undefined },
  ) {}

  /** The `tools/list` result for the tools of `view` that the caller of `context` may use. */
  async list(view: ToolView, context: ToolExecutionContext | undefined): Promise<ListToolsResult> {
    const visible = await view.getVisibleTools({ context });
    const all = this.describeAll(view, view.toProviderDefs('mcp', { context }), context);
    if (visible === view.getActiveTools({ context })) return all;
    const names = new Set(visible.map((tool) => tool.name));
    return { tools: all.tools.filter((tool) => names.has(tool.name)) };
  }

  /** The result for these definitions (the same object while the view's shared definitions stay). */
  private describeAll(view: ToolView, definitions: readonly McpToolDefinition[], context: ToolExecutionContext | undefined): ListToolsResult {
    const cache = this.cache;
    if (cache && cache.definitions === definitions) return cache.result;
    const active = view.getActiveTools({ context });
    const byName = new Map(active.map((t) => [t.name, t]));
    const tools: Tool[] = definitions.map((definition) => this.describe(definition, byName.get(definition.name)));
    const result: ListToolsResult = { tools };
    this.cache = { definitions, result };
    return result;
  }

  /** Forgets the cached answer (the active tools changed). */
  invalidate(): void {
    this.cache = undefined;
  }

  /** The structured output `tool` declares for MCP, if any (worked out once per tool). */
  shapeOf(tool: AgentTool): OutputShape | undefined {
    let shape = this.shapes.get(tool);
    if (shape === undefined) this.shapes.set(tool, (shape = outputShapeOf(tool, this.options.tools?.[tool.name]) ?? null));
    return shape ?? undefined;
  }

  private describe(definition: McpToolDefinition, tool: AgentTool | undefined): Tool {
    // the MCP lowering writes each property's schema as an object, as the SDK's Tool type wants
    const described: Tool = { name: definition.name, description: definition.description, inputSchema: definition.inputSchema as Tool['inputSchema'] };
    if (!tool) return described;
    const override = this.options.tools?.[tool.name];
    const title = titleOf(tool, override);
    if (title !== undefined) described.title = title;
    const annotations = hintsOf(tool, override, title);
    if (annotations !== undefined) described.annotations = annotations;
    const shape = this.shapeOf(tool);
    if (shape) described.outputSchema = shape.schema as Tool['outputSchema'];
    if (this.options.tasks !== false) {
      const taskSupport = taskSupportOf(tool, override);
      if (taskSupport !== 'forbidden') described.execution = { taskSupport };
    }
    const meta = metaOf(tool, override);
    if (meta) described._meta = meta;
    return described;
  }
}
