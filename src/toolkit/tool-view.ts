import type { Observable } from 'rxjs';
import type { AgentTool } from '../model/agent-tool';
import type { ToolCall, ToolResult, ToolSchema } from '../model/tool-types';
import type { BatchRunner } from '../executor/batch';
import { NO_OPTIONS, type CallOptions } from '../executor/executor-parts';
import type { ToolkitErrorCode } from '../errors';
import { lowerToolSchemas, warnOmission, type LoweringOptions, type LoweringResult, type ProviderName, type ProviderToolDefinitionMap } from '../schema/lowering';
import type { CatalogAccess, CatalogViews, PromptView, ResourceView } from '../resources/catalog-views';
import type { ActivationState, SkillRunScope } from './activation';
import type { RenderPromptOptions, ToolGroupState, ToolListOptions } from './view-options';
import { callerDependent, masked, visibleMask, visibleMaskAsync, visibleTools$, type ListingParts } from './visible-tools';
import type { ToolAvailability } from './availability';
import type { PromptSkill } from './render-prompt';

/** @internal Where a call of a skill run comes from: how deep in other runs, which runs, and the run's availability gate (its scope within the calling view). */
export interface SkillFrame {
  readonly depth: number;
  /** The skills from the outermost run to this one. */
  readonly chain: readonly string[];
  /** What the run may call (instead of what the view enables). */
  readonly scope: SkillRunScope;
}

/** @internal The dispatcher, as views and skill runs call through it (declared beside the view: its operations take views). */
export interface ViewCalls {
  /** Runs a call made in a view (`frame`: by a skill run). Never rejects. */
  dispatch(view: ToolView, state: ActivationState, call: ToolCall, options: CallOptions, frame?: SkillFrame): Promise<ToolResult>;
  /** Answers a call made in a view with an error, running nothing of it: the call still gets its start and end events. Never rejects. */
  refuse(state: ActivationState, call: ToolCall, options: CallOptions, code: ToolkitErrorCode, message: string, frame?: SkillFrame): Promise<ToolResult>;
}

/** @internal The skill registry, as a view switches its skill through it and names the skills in its prompt. */
export interface ViewSkills {
  activate(view: ToolView, state: ActivationState, name: string): Promise<void>;
  deactivate(view: ToolView, state: ActivationState): Promise<void>;
  /** Puts back a skill layer without its hooks (a restored conversation); `false` when the skill cannot be. */
  restore(state: ActivationState, name: string, groups: ReadonlySet<string>): boolean;
  get(name: string): { readonly skill: PromptSkill } | undefined;
  list(): readonly PromptSkill[];
}

/** @internal The parts of its toolkit a view works with, the same for every view of one toolkit. */
export interface ViewParts {
  /** Who may see what: the listing rules. */
  readonly listing: ListingParts;
  /** Where the view's calls go: the dispatcher. */
  readonly calls: ViewCalls;
  /** Where the view's skill changes go: the skill registry. */
  readonly skills: ViewSkills;
  /** Runs a view's batches by the toolkit's settings (`parallel`, `maxConcurrency`, sequential tools). */
  readonly batches: BatchRunner;
  /** The toolkit's resources and prompts, as a view's catalog access lets it reach them. */
  readonly catalog: CatalogViews;
  /** The meta tools: the prompt names `equip_tool_groups` while it is offered (`undefined`: not offered). */
  readonly meta: { readonly equipTool: string | undefined };
}

/** The system prompt's renderer, loaded by the first `renderPrompt()`: `require('toolwright')` does not pay for it (a light cold start). */
let renderer: typeof import('./render-prompt') | undefined;

/** What a view lets its resources and prompts reach: its groups (skills select tools, not resources), while it is open. */
function catalogAccessOf(state: ActivationState): CatalogAccess {
  return { sessionId: state.sessionId, permits: (group) => state.permits(group), closedReason: () => state.closedReason(), changes$: state.changes$ };
}

/**
 * The per-view half of the toolkit API, shared by `Toolkit` (the default view) and
 * `ToolkitSession` (one session's view): what is enabled and why (groups, skill), the
 * definitions, the system-prompt text, and calling tools. Meta tools called through a view
 * (`invoke_skill`, `equip_tool_groups`, `list_skills`) act on that view.
 *
 * @example
 * function serve(view: ToolView) {
 *   return { tools: view.toProviderDefs('openai'), system: view.renderPrompt(), run: (calls: ToolCall[]) => view.callTools(calls) };
 * }
 * serve(toolkit.session('conversation-1'));
 */
export abstract class ToolView {
  /** @internal */
  protected constructor(
    /** @internal */ protected readonly parts: ViewParts,
    /** @internal */ protected readonly state: ActivationState,
  ) {}

  private resourceView: ResourceView | undefined;
  private promptView: PromptView | undefined;

  /**
   * The resources of the services registered with `@Resource`, as this view reaches them: only
   * those of the groups it has on are listed and readable.
   *
   * @example
   * const { contents } = await session.resources.read('docs://readme');
   */
  get resources(): ResourceView {
    return (this.resourceView ??= this.parts.catalog.resources(catalogAccessOf(this.state)));
  }

  /**
   * The prompts of the services registered with `@Prompt`, as this view reaches them: only those
   * of the groups it has on are listed and gettable.
   *
   * @example
   * const { messages } = await session.prompts.get('review', { pr: '42' });
   */
  get prompts(): PromptView {
    return (this.promptView ??= this.parts.catalog.prompts(catalogAccessOf(this.state)));
  }

  /** The session this view belongs to (`undefined` for the toolkit's own view). */
  get sessionId(): string | undefined {
    return this.state.sessionId;
  }

  /**
   * The enabled tools that the caller (`options.context`'s `Principal`, else the toolkit
   * context's) may use: a tool whose scopes it lacks, or that the `authorize` rule refuses
   * synchronously, is left out (see {@link getAvailability} for why each is enabled). While no
   * tool depends on the caller, a new array after every change and the same array until then.
   *
   * @example
   * session.getActiveTools().map((t) => t.name); // ['get_weather', 'list_skills', 'invoke_skill']
   */
  getActiveTools(options?: ToolListOptions): readonly AgentTool[] {
    const tools = this.state.activeTools();
    return masked(tools, visibleMask(this.parts.listing, tools, options?.context));
  }

  /** @internal True when what this view lists may depend on the caller: an `authorize` rule is set, or an enabled tool has scopes. */
  listsDependOnCaller(): boolean {
    return callerDependent(this.parts.listing, this.state.activeTools());
  }

  /**
   * {@link getActiveTools} with an asynchronous `authorize` rule's answers awaited (the
   * synchronous lists show a tool whose rule answers with a Promise; its call decides).
   *
   * @example
   * const tools = await toolkit.getVisibleTools({ context: ToolExecutionContext.of(principal) });
   */
  async getVisibleTools(options?: ToolListOptions): Promise<readonly AgentTool[]> {
    const tools = this.state.activeTools();
    return masked(tools, await visibleMaskAsync(this.parts.listing, tools, options?.context));
  }

  /**
   * The enabled tools as an Observable, derived from the availability: the current list at
   * once, then a new list synchronously on every change (group toggle, skill, registration).
   *
   * @example
   * const sub = session.activeTools$.subscribe((tools) => mcp.sendToolListChanged());
   */
  get activeTools$(): Observable<readonly AgentTool[]> {
    return this.state.activeTools$;
  }

  /**
   * {@link activeTools$} for one caller (`options.context`, as in {@link getVisibleTools}): its list at once, then a new one whenever a
   * change (toggle, skill, registration) changes what it may use; an async `authorize` rule is awaited (the list comes later).
   *
   * @example
   * session.visibleTools$({ context: ToolExecutionContext.of(principal) }).subscribe((tools) => ui.show(tools));
   */
  visibleTools$(options?: ToolListOptions): Observable<readonly AgentTool[]> {
    return visibleTools$(this.parts.listing, this.state.activeTools$, options?.context);
  }

  /**
   * The one computed model of what is enabled in this view, and why: each enabled tool with its
   * source (`global` meta tool, `component` enabled by its group `owner` or always on, `skill`
   * enabled by the active skill `owner`), in registration order. Frozen and shared between views
   * in the same state; recomputed only after a change.
   *
   * @example
   * session.getAvailability();
   * // [{ name: 'web_search', source: 'skill', owner: 'research' }, { name: 'invoke_skill', source: 'global' }]
   */
  getAvailability(): readonly ToolAvailability[] {
    return this.state.availability();
  }

  /**
   * {@link getAvailability} as an Observable: the current availability at once, then each change.
   *
   * @example
   * toolkit.availability$.subscribe((list) => audit.log(list.filter((a) => a.source === 'skill')));
   */
  get availability$(): Observable<readonly ToolAvailability[]> {
    return this.state.availability$;
  }

  /** `{ name, description, parameters }` of each tool {@link getActiveTools} lists (presets never appear). */
  getToolSchemas(options?: ToolListOptions): readonly ToolSchema[] {
    return masked(this.state.toolSchemas(), visibleMask(this.parts.listing, this.state.activeTools(), options?.context));
  }

  /** The groups and whether each is on in this view. */
  getToolGroups(): ToolGroupState[] {
    return this.state.groupStates();
  }

  /** The names of the groups in effect: the base groups, or while a skill is active the groups switched on during it. */
  getActiveGroups(): string[] {
    return [...this.state.activeGroups];
  }

  /**
   * Switches groups on or off in this view. While a skill is active, the toggle belongs to the
   * skill: a group switched on adds its tools to the skill's scope, and every toggle made during
   * the skill ends with it (`deactivateSkill()` restores the groups as they were before).
   *
   * @throws ToolkitError `UNKNOWN_GROUP` when a name is not a group; `SESSION_CLOSED` on a closed session.
   *
   * @example
   * session.updateToolGroups(['admin'], true);
   */
  updateToolGroups(names: readonly string[], active: boolean): void {
    this.state.checkGroups(names);
    if (this.state.setGroups(names, active)) this.state.groupsChanged();
  }

  /**
   * The enabled tools as a provider's definitions, cached until the enabled set changes (a
   * frozen array, shared by the views in the same state: copy it to add your own). A tool the
   * provider cannot take (a name it rejects, a schema it cannot express) is left out, the others
   * are there: {@link lowerTools} says which and why, and a `TOOLWRIGHT_TOOL_SKIPPED` process
   * warning names it once per tool and provider.
   *
   * @throws ToolkitError `UNKNOWN_PROVIDER` for a provider name lowering does not know.
   */
  toProviderDefs<P extends ProviderName>(provider: P, options: LoweringOptions & ToolListOptions = {}): readonly ProviderToolDefinitionMap[P][] {
    return this.lowerTools(provider, options).definitions;
  }

  /**
   * The provider definitions together with the report of what the lowering changed per tool and
   * the tools it left out (`omitted`: tool, provider, error code and reason). Like every list,
   * only the tools the caller may use (`options.context`, see {@link getActiveTools}).
   *
   * @example
   * const { definitions, omitted } = toolkit.lowerTools('gemini');
   * for (const o of omitted) log.warn(`${o.tool} is not offered to Gemini: ${o.change}`);
   */
  lowerTools<P extends ProviderName>(provider: P, options: LoweringOptions & ToolListOptions = {}): LoweringResult<ProviderToolDefinitionMap[P]> {
    const { context, ...lowering } = options;
    const mask = visibleMask(this.parts.listing, this.state.activeTools(), context);
    // shared by every view in the same state: frozen, so that no caller can change another's;
    // a caller's narrower list is lowered for that caller
    const key = `${provider}|${lowering.strict === true}`;
    const make = (): LoweringResult<ProviderToolDefinitionMap[P]> => {
      const schemas = masked(this.state.toolSchemas(), mask);
      const lowered = lowerToolSchemas(schemas, provider, lowering);
      for (const omission of lowered.omitted) {
        const schema = schemas.find((s) => s.name === omission.tool);
        warnOmission('toProviderDefs', omission, schema && { tool: schema, key });
      }
      for (const part of [lowered.definitions, lowered.report, lowered.omitted]) Object.freeze(part);
      return Object.freeze(lowered);
    };
    return mask === undefined ? this.state.cachedDefs(key, make) : make();
  }

  /**
   * Runs one call. Never rejects for call-time faults: they come back as `isError` results.
   *
   * @example
   * const result = await toolkit.callTool({ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' });
   */
  callTool(call: ToolCall, options: CallOptions = NO_OPTIONS): Promise<ToolResult> {
    return this.parts.calls.dispatch(this, this.state, call, options);
  }

  /** Runs a batch (in parallel up to `maxConcurrency`, sequential tools in order); results in call order. */
  callTools(calls: readonly ToolCall[], options: CallOptions = NO_OPTIONS): Promise<ToolResult[]> {
    // the batch's options as this view has them, once for all its calls
    const callOptions = this.state.callOptions(options);
    return this.parts.batches.run(calls, (call) => this.callTool(call, callOptions));
  }

  /**
   * @internal Answers `call` with an error without running it — a refusal of the caller's own
   * (the tool loop's budget) — so that it still gets its start and end events like any other call.
   */
  refuseCall(call: ToolCall, code: ToolkitErrorCode, message: string, options: CallOptions = NO_OPTIONS): Promise<ToolResult> {
    return this.parts.calls.refuse(this.state, call, options, code, message);
  }

  /** The active skill's name in this view (the snapshot beside {@link activeSkill$}). */
  get activeSkill(): string | undefined {
    return this.state.skill?.name;
  }

  /**
   * The active skill's name (or `undefined`) as an Observable: the current value at once, then
   * each change, synchronously (like a `BehaviorSubject`, read-only).
   *
   * @example
   * session.activeSkill$.subscribe((skill) => ui.showMode(skill ?? 'general'));
   */
  get activeSkill$(): Observable<string | undefined> {
    return this.state.activeSkill$;
  }

  /**
   * Activates a skill in this view: only its tools (plus the global meta tools) stay enabled,
   * until `deactivateSkill()`. The view changes at once (subscribers see it before this returns);
   * the Promise resolves once the hooks ran (the previous skill's `onDeactivate`, then
   * `onActivate`). Activating another skill replaces the active one; activating the active skill
   * again changes nothing.
   *
   * @throws ToolkitError (the Promise rejects) `UNKNOWN_SKILL`, `MISSING_REQUIRED_TOOLS`,
   *   `SESSION_CLOSED`; `SKILL_FAILED` when a hook threw (a failed `onActivate` deactivates the skill again).
   *
   * @example
   * await session.activateSkill('research');
   * session.getActiveTools().map((t) => t.name); // ['web_search', 'fetch_page', 'list_skills', 'invoke_skill']
   */
  activateSkill(name: string): Promise<void> {
    return this.parts.skills.activate(this, this.state, name);
  }

  /**
   * Deactivates the active skill and restores exactly the view it replaced: the groups as they
   * were before the skill (toggles made during it are dropped with it). A no-op without a skill.
   *
   * @throws ToolkitError (the Promise rejects) `SKILL_FAILED` when `onDeactivate` threw (the skill is deactivated anyway); `SESSION_CLOSED`.
   *
   * @example
   * await session.deactivateSkill();
   */
  deactivateSkill(): Promise<void> {
    return this.parts.skills.deactivate(this, this.state);
  }

  /**
   * Renders this view for a system prompt (Markdown): the active skill's instructions, the
   * enabled tools, the groups with their state and the skills. Sections with nothing to say are
   * left out.
   *
   * @example
   * const messages = [{ role: 'system', content: `You are a helpful agent.\n\n${session.renderPrompt()}` }];
   */
  renderPrompt(options: RenderPromptOptions = {}): string {
    const { state, parts } = this;
    const tools = state.activeTools();
    const activeSkill = state.skill && parts.skills.get(state.skill.name)?.skill;
    renderer ??= require('./render-prompt') as typeof import('./render-prompt');
    return renderer.renderPrompt({ activeSkill, tools: masked(tools, visibleMask(parts.listing, tools, options.context)), availability: state.availability(), groups: state.groupStates(), skills: parts.skills.list(), equipTool: parts.meta.equipTool }, options);
  }
}
