import type { AgentTool, ToolCallContext } from '../common/agent-tool';
import { ToolExecutionContext } from '../common/execution-context';
import type { JsonSchema, ObjectJsonSchema } from '../common/json-schema';
import { quoteInput, quoteInputs } from '../common/quote-input';
import { errorResult, toolResult } from '../common/results';
import type { ToolCall, ToolResult } from '../common/tool-types';
import { MalformedArguments, parseCallArguments } from '../common/call-arguments';
import { CallRun, type AvailabilityView, type CallOptions } from '../executor/call-executor';
import { ToolkitError } from '../errors';
import type { ActivationState } from './activation';
import type { GroupRecord } from './availability';
import type { CallOrigin } from '../executor/hooks';
import type { Registry, ToolEntry, ToolkitCore } from './registry';
import { SkillRun, type CallBinding, type SkillRunHost } from './skill-run';
import { ToolkitSession } from './session';
import type { ResolvedSkillOptions } from './skill-definition';
import type { SkillRecord, SkillRegistry } from './skills';
import type { SkillFrame, ToolView } from './tool-view';

/**
 * The name of the opt-in meta tool that switches tool groups (see `Toolkit.enableEquipToolGroups`).
 *
 * @example
 * await session.callTool({ id: 'c1', name: EQUIP_TOOL_GROUPS, arguments: { add: ['email'], remove: ['weather'] } });
 */
export const EQUIP_TOOL_GROUPS = 'equip_tool_groups';
/**
 * The name of the meta tool that lists the skills (offered once a skill is registered).
 *
 * @example
 * const { data } = await session.callTool({ id: 'c1', name: LIST_SKILLS, arguments: {} });
 */
export const LIST_SKILLS = 'list_skills';
/**
 * The name of the meta tool that activates a scoping skill or runs an executable one.
 *
 * @example
 * await session.callTool({ id: 'c1', name: INVOKE_SKILL, arguments: { name: 'convert', parameters: { eur: 10 } } });
 */
export const INVOKE_SKILL = 'invoke_skill';

/**
 * Options of the opt-in `equip_tool_groups` meta tool (`new Toolkit({ equipToolGroups })` or
 * `toolkit.enableEquipToolGroups(options)`).
 *
 * @example
 * toolkit.enableEquipToolGroups({ groups: ['weather', 'email'] }); // 'admin' stays out of the model's reach
 */
export interface EquipToolGroupsOptions {
  /** The groups the model may switch (default: every group, including groups created later). */
  groups?: readonly string[];
}

/**
 * One skill as `list_skills` reports it in its result's `data` (an array of these).
 *
 * @example
 * const skills = (await toolkit.callTool({ id: 'c', name: 'list_skills', arguments: {} })).data as SkillListing[];
 * skills.filter((s) => s.executable).map((s) => s.name);
 */
export interface SkillListing {
  /** The skill's name. */
  name: string;
  /** What it is for. */
  description: string;
  /** Its scope (`tools`, `requiredTools`, step tools). */
  tools: string[];
  /** True for skills that run (`run` / `steps`) rather than scope tools. */
  executable: boolean;
  /** True when it is active in the calling view. */
  active: boolean;
  /** The parameters of an executable skill. */
  parameters?: ObjectJsonSchema;
  /** Its risk level. */
  risk?: string;
}

/** @internal What the meta tools need from the toolkit. */
export interface MetaHost {
  readonly core: ToolkitCore;
  readonly skills: SkillRegistry;
  readonly limits: ResolvedSkillOptions;
  readonly parallel: boolean;
  readonly maxConcurrency: number;
  /** Builds a checked `global` entry for a meta tool (as `registerTool` would). */
  entryFor(tool: AgentTool): ToolEntry;
  /** Adds or replaces entries without telling anyone (the caller does). */
  putEntries(entries: readonly ToolEntry[]): void;
  /** Removes an entry without telling anyone. */
  removeEntry(name: string): void;
  /** The toolkit's groups. */
  groups(): Iterable<GroupRecord>;
  /** The view of a session (or the toolkit) for meta tools run outside a view (`tool.execute(...)` by hand). */
  viewFor(sessionId: string | undefined): { view: ToolView; state: ActivationState };
}

type MetaKind = typeof LIST_SKILLS | typeof INVOKE_SKILL | typeof EQUIP_TOOL_GROUPS;

const NO_PARAMETERS: ObjectJsonSchema = Object.freeze({ type: 'object', properties: {}, additionalProperties: false }) as ObjectJsonSchema;

/**
 * @internal The toolkit's meta tools (`list_skills`, `invoke_skill`, opt-in `equip_tool_groups`)
 * and the routing that makes them act on the view that called them.
 *
 * A call to a meta tool runs through the ordinary executor (validation, hooks, events) with an
 * entry bound to the calling view. `invoke_skill` of a known skill is validated against that
 * skill's own schema (`{ name, parameters }` with the skill's parameters, so errors name
 * `parameters.<field>`), and its hooks see a tool carrying the skill's `risk`, timeout and
 * annotations: an approval hook with `minRisk` holds exactly the risky skills.
 */
export class MetaTools implements SkillRunHost {
  private readonly entries = new Map<string, ToolEntry>();
  private readonly templates = new Map<string, { entry: ToolEntry; record: SkillRecord }>();
  private equip: EquipToolGroupsOptions | undefined = undefined;

  constructor(private readonly host: MetaHost) {}

  get registry(): Registry {
    return this.host.core.registry;
  }

  get parallel(): boolean {
    return this.host.parallel;
  }

  get maxConcurrency(): number {
    return this.host.maxConcurrency;
  }

  /** True when `equip_tool_groups` is offered. */
  get equipEnabled(): boolean {
    return this.equip !== undefined;
  }

  // ------------------------------------------------------------------ (re)building the meta tools

  /** The skills changed: (re)builds `list_skills` and `invoke_skill` (the skill names are in its schema). */
  skillsChanged(): void {
    this.put([this.listSkillsTool(), this.invokeSkillTool()]);
  }

  /** Offers `equip_tool_groups` (or updates its options). */
  enableEquip(options: EquipToolGroupsOptions): void {
    const groups = options.groups;
    if (groups !== undefined && (!Array.isArray(groups) || groups.some((g) => typeof g !== 'string'))) {
      throw new ToolkitError('INVALID_DEFINITION', 'equipToolGroups.groups must be an array of group names.');
    }
    this.equip = groups !== undefined ? { groups: [...groups] } : {};
    this.put([this.equipTool()]);
  }

  /** Withdraws `equip_tool_groups`; returns whether it was offered. */
  disableEquip(): boolean {
    if (this.equip === undefined) return false;
    this.equip = undefined;
    this.entries.delete(EQUIP_TOOL_GROUPS);
    this.host.removeEntry(EQUIP_TOOL_GROUPS);
    return true;
  }

  /** Groups were created or described: `equip_tool_groups` lists them. Returns whether it changed. */
  groupsChanged(): boolean {
    if (this.equip === undefined) return false;
    this.put([this.equipTool()]);
    return true;
  }

  private put(tools: AgentTool[]): void {
    for (const tool of tools) {
      const taken = this.host.core.registry.get(tool.name);
      if (taken !== undefined && taken !== this.entries.get(tool.name)) {
        throw new ToolkitError(
          'DUPLICATE_TOOL',
          `Tool name '${tool.name}' is taken: ${taken.owner} already registered it, and the toolkit needs it for its own meta tool. ` +
            'Rename your tool (or unregister it) first.',
          { tool: tool.name },
        );
      }
    }
    const entries = tools.map((tool) => this.host.entryFor(tool));
    for (const entry of entries) this.entries.set(entry.name, entry);
    this.host.putEntries(entries);
  }

  // ------------------------------------------------------------------ routing

  /**
   * Runs `call` in a view: meta tools bound to that view, everything else straight through the
   * executor. `availability` decides what is enabled (the view's state, or a skill run's scope).
   * A closed session's calls answer `SESSION_CLOSED`, also when they come later (an approval, a skill run).
   */
  dispatch(
    view: ToolView,
    state: ActivationState,
    availability: AvailabilityView,
    call: ToolCall,
    options: CallOptions,
    frame?: SkillFrame,
  ): Promise<ToolResult> {
    // a closed (or expired) session runs nothing more: no approval resumed later, no step of a skill run
    if (view instanceof ToolkitSession && view.closed) return view.callTool(call, options);
    const core = this.host.core;
    const origin = core.hooks.length > 0 ? this.originOf(view, state, availability, options, frame) : undefined;
    if (this.entries.size !== 0) {
      const registered = this.entries.get(call.name);
      if (registered !== undefined && core.registry.get(call.name) === registered) {
        const routed = this.route(registered, { view, state, options, frame }, availability, call, origin);
        if (routed !== undefined) return routed;
      }
    }
    return new CallRun(core, availability, call, options, origin).run();
  }

  /** How a call of this dispatch runs again later as requested: same view, availability, session and contexts. */
  private originOf(view: ToolView, state: ActivationState, availability: AvailabilityView, options: CallOptions, frame: SkillFrame | undefined): CallOrigin {
    return {
      sessionId: options.sessionId,
      resume: (call, extra) => {
        const resumed: CallOptions = { context: ToolExecutionContext.merge(options.context, extra.context) };
        if (options.agentContext !== undefined) resumed.agentContext = options.agentContext;
        if (options.sessionId !== undefined) resumed.sessionId = options.sessionId;
        if (extra.signal !== undefined) resumed.signal = extra.signal;
        if (extra.onProgress !== undefined) resumed.onProgress = extra.onProgress;
        return this.dispatch(view, state, availability, call, resumed, frame);
      },
    };
  }

  private route(
    registered: ToolEntry,
    binding: CallBinding,
    availability: AvailabilityView,
    call: ToolCall,
    origin: CallOrigin | undefined,
  ): Promise<ToolResult> | undefined {
    let template = registered;
    let execute: AgentTool['execute'];
    switch (registered.name as MetaKind) {
      case LIST_SKILLS:
        execute = () => this.listSkills(binding);
        break;
      case EQUIP_TOOL_GROUPS:
        execute = (args) => this.equipGroups(args, binding);
        break;
      default: {
        const found = this.templateFor(call);
        // malformed arguments or an unknown skill: the generic entry answers (validation, then its own error)
        if (found === undefined) return undefined;
        template = found.entry;
        execute = (args, ctx) => this.invoke(found.record, args, ctx, binding);
      }
    }
    template.validator ??= this.host.core.ajv.compile(template.schema);
    const bound: ToolEntry = { ...template, target: { ...template.tool, execute } };
    return new CallRun(this.host.core, availability, call, binding.options, origin, { entry: bound, gate: registered }).run();
  }

  /** The entry of the skill an `invoke_skill` call names, or `undefined` when it names none. */
  private templateFor(call: ToolCall): { entry: ToolEntry; record: SkillRecord } | undefined {
    const args = parseCallArguments(call.arguments);
    if (args instanceof MalformedArguments) return undefined;
    const name = args.name;
    if (typeof name !== 'string') return undefined;
    const record = this.host.skills.get(name);
    if (record === undefined) return undefined;
    let template = this.templates.get(name);
    if (template === undefined || template.record !== record) {
      template = { entry: this.host.entryFor(this.skillTool(record)), record };
      this.templates.set(name, template);
    }
    return template;
  }

  // ------------------------------------------------------------------ list_skills

  private listSkillsTool(): AgentTool {
    return {
      name: LIST_SKILLS,
      description: 'List the skills you can invoke with invoke_skill: what each is for, its tools, and the parameters of skills that run.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      behaviour: { annotations: { readOnly: true, idempotent: true, openWorld: false } },
      execute: (_args, ctx) => this.listSkills(this.fallbackBinding(ctx)),
    };
  }

  private listSkills(binding: CallBinding): ToolResult {
    const active = binding.state.skill?.name;
    const listings: SkillListing[] = [];
    const lines: string[] = [];
    for (const { skill, scope, executable } of this.host.skills.all()) {
      const listing: SkillListing = { name: skill.name, description: skill.description, tools: [...scope], executable, active: skill.name === active };
      if (skill.parameters !== undefined) listing.parameters = skill.parameters;
      if (skill.risk !== undefined) listing.risk = skill.risk;
      listings.push(listing);
      let line = `- ${skill.name}${listing.active ? ' (active)' : ''}: ${skill.description}`;
      if (executable) {
        line += ` Runs when invoked${skill.parameters ? ` with parameters ${JSON.stringify(skill.parameters)}` : ''}.`;
        if (skill.risk !== undefined) line += ` Risk: ${skill.risk}.`;
      } else line += ` Tools: ${[...scope].join(', ') || '(none)'}.`;
      lines.push(line);
    }
    const text = lines.length ? `Skills (call invoke_skill with the name${listings.some((l) => l.parameters) ? ' and, for skills that run, the parameters' : ''}):\n${lines.join('\n')}` : 'No skills.';
    return toolResult(text, listings);
  }

  // ------------------------------------------------------------------ invoke_skill

  private invokeSkillTool(): AgentTool {
    const records = [...this.host.skills.all()];
    const withParameters = records.filter((r) => r.skill.parameters !== undefined).map((r) => r.skill.parameters!);
    const properties: Record<string, JsonSchema> = {
      name: { type: 'string', enum: records.map((r) => r.skill.name), description: 'The skill (see list_skills).' },
    };
    if (withParameters.length) {
      const description = "The skill's parameters, for skills that run (see list_skills).";
      properties.parameters = withParameters.length === 1 ? { ...withParameters[0], description } : { description, anyOf: withParameters };
    }
    return {
      name: INVOKE_SKILL,
      description:
        'Invoke a skill by name. A skill that scopes tools becomes active (only its tools stay available) and you get its instructions; ' +
        'a skill that runs does its work with the given parameters and you get its output.',
      parameters: { type: 'object', properties, required: ['name'], additionalProperties: false },
      execute: (args, ctx) => {
        const name = String(args.name);
        const record = this.host.skills.get(name);
        if (!record) throw new ToolkitError('UNKNOWN_SKILL', `Unknown skill ${quoteInput(name)}. Call list_skills to see the skills.`);
        return this.invoke(record, args, ctx, this.fallbackBinding(ctx));
      },
    };
  }

  /** What hooks and validation see for `invoke_skill` of one skill: its schema, risk, timeout. */
  private skillTool(record: SkillRecord): AgentTool {
    const { skill, executable } = record;
    const parameters = skill.parameters ?? NO_PARAMETERS;
    const required = ['name', ...(parameters.required?.length ? ['parameters'] : [])];
    const timeoutMs = executable ? (skill.timeoutMs ?? this.host.limits.timeoutMs) : undefined;
    return {
      name: INVOKE_SKILL,
      description: `Invoke skill '${skill.name}': ${skill.description}`,
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', const: skill.name }, parameters },
        required,
        additionalProperties: false,
      },
      behaviour: {
        ...(skill.risk !== undefined ? { risk: skill.risk } : {}),
        ...(skill.annotations !== undefined ? { annotations: skill.annotations } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        // a run has side effects: never retried by the toolkit's retry policy
        retry: { maxAttempts: 1 },
        tags: ['skill', skill.name],
      },
      execute: (args, ctx) => this.invoke(record, args, ctx, this.fallbackBinding(ctx)),
    };
  }

  private async invoke(record: SkillRecord, args: Record<string, unknown>, ctx: ToolCallContext, binding: CallBinding): Promise<unknown> {
    const { skill, executable } = record;
    try {
      this.host.skills.checkRequired(skill, executable ? 'run' : 'activate');
    } catch (error) {
      if (ToolkitError.is(error)) return errorResult(error.message, error.code);
      throw error;
    }
    if (!executable) {
      if (binding.frame !== undefined) {
        return errorResult(
          `Skill '${skill.name}' only scopes tools; a skill's workflow can invoke only skills that run (with run or steps).`,
          'SKILL_FAILED',
        );
      }
      await this.host.skills.activate(binding.view, binding.state, skill.name);
      const tools = [...record.scope];
      return `Skill '${skill.name}' is active. Tools: ${tools.join(', ') || '(none)'}.${skill.instructions ? `\n\n${skill.instructions}` : ''}`;
    }
    const depth = (binding.frame?.depth ?? 0) + 1;
    const chain = [...(binding.frame?.chain ?? []), skill.name];
    const maxDepth = this.host.limits.maxDepth;
    if (depth > maxDepth) {
      return errorResult(
        `Skill '${skill.name}' was not run: skills invoking skills (${chain.join(' > ')}) would nest ${depth} deep; the limit is ${maxDepth}.`,
        'SKILL_LIMIT_EXCEEDED',
      );
    }
    const params = (args.parameters ?? {}) as Record<string, unknown>;
    const maxToolCalls = skill.maxToolCalls ?? this.host.limits.maxToolCalls;
    return new SkillRun(this, record, ctx, binding, { depth, chain }, maxToolCalls).execute(params);
  }

  // ------------------------------------------------------------------ equip_tool_groups

  private equippable(): GroupRecord[] {
    const allowed = this.equip?.groups;
    const all = [...this.host.groups()];
    return allowed === undefined ? all : all.filter((g) => allowed.includes(g.name));
  }

  private equipTool(): AgentTool {
    const groups = this.equippable();
    const names = groups.map((g) => g.name);
    const list: JsonSchema = { type: 'array', items: names.length ? { type: 'string', enum: names } : { type: 'string' }, uniqueItems: true };
    const listed = groups.map((g) => (g.description ? `${g.name} (${g.description})` : g.name)).join(', ') || '(none yet)';
    return {
      name: EQUIP_TOOL_GROUPS,
      description:
        'Switch tool groups on (add) or off (remove) for this conversation; their tools appear or disappear. ' +
        `Call it with no arguments to see which groups are on. Groups: ${listed}.`,
      parameters: {
        type: 'object',
        properties: {
          add: { ...list, description: 'Groups to switch on.' },
          remove: { ...list, description: 'Groups to switch off.' },
        },
        additionalProperties: false,
      },
      behaviour: { annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false } },
      execute: (args, ctx) => this.equipGroups(args, this.fallbackBinding(ctx)),
    };
  }

  private equipGroups(args: Record<string, unknown>, binding: CallBinding): ToolResult {
    const add = (args.add as string[] | undefined) ?? [];
    const remove = (args.remove as string[] | undefined) ?? [];
    const allowed = new Set(this.equippable().map((g) => g.name));
    const unknown = [...add, ...remove].filter((name) => !allowed.has(name));
    if (unknown.length) {
      return errorResult(
        `Unknown group(s) ${quoteInputs(unknown)}. Groups you can switch: ${[...allowed].join(', ') || '(none)'}.`,
        'INVALID_ARGUMENTS',
      );
    }
    const both = add.filter((name) => remove.includes(name));
    if (both.length) {
      return errorResult(`Group(s) ${quoteInputs(both)} are both in add and remove; name each group once.`, 'INVALID_ARGUMENTS');
    }
    const { view } = binding;
    if (add.length) view.updateToolGroups(add, true);
    if (remove.length) view.updateToolGroups(remove, false);
    const skill = view.activeSkill;
    const active = view.getActiveGroups().filter((g) => allowed.has(g));
    const text =
      `Active groups: ${active.join(', ') || '(none)'}. Available tools: ${view.getActiveTools().map((t) => t.name).join(', ') || '(none)'}.` +
      (skill !== undefined ? ` Skill '${skill}' is active: groups switched on now stay on only until it is deactivated.` : '');
    return toolResult(text, { activeGroups: active });
  }

  // ------------------------------------------------------------------ fallback

  /** The binding of a meta tool run without routing (someone called `tool.execute` directly). */
  private fallbackBinding(ctx: ToolCallContext): CallBinding {
    const { view, state } = this.host.viewFor(ctx.sessionId);
    return { view, state, options: ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}, frame: undefined };
  }
}
