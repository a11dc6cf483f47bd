import { Container } from 'inversify';
import { Subject, type Observable } from 'rxjs';
import { GuardedObservable } from '../common/guarded-observable';
import type { AgentTool } from '../common/agent-tool';
import { isAsyncTool } from '../common/agent-tool';
import { ToolExecutionContext } from '../common/execution-context';
import type { ToolManifest } from '../common/manifest';
import type { ExecutionOptions, ToolResult } from '../common/tool-types';
import { completeAsyncToolCall } from '../executor/async-calls';
import { DEFAULT_EXECUTION, resolveExecution } from '../executor/execution-settings';
import { DeadlineScheduler } from '../executor/deadlines';
import { createAjv } from '../executor/validation';
import { ToolkitError } from '../errors';
import type { Constructor } from '../metadata/records';
import { ActivationState } from './activation';
import { AvailabilityCache, EMPTY_GROUPS, type GroupRecord } from './availability';
import type { ToolEvent } from '../executor/events';
import type { ToolHook } from '../executor/hooks';
import { ToolRegistration, type RegisterOptions, type ToolTarget } from './registration';
import { Registry, type ToolEntry } from './registry';
import { MetaTools, type EquipToolGroupsOptions } from './meta-tools';
import { renderPrompt } from './render-prompt';
import { ToolkitSession, type SessionHost, type SessionOptions } from './session';
import { resolveSkillOptions, type SkillDefinition, type SkillOptions } from './skill-definition';
import { SkillRegistry } from './skills';
import { ToolView, type RenderPromptOptions } from './tool-view';
import { callbackFailureReporter } from './callback-failures';
import { ToolEntries } from './tool-entries';

/** Options of `new Toolkit(...)`; all optional. */
export interface ToolkitOptions {
  /** The Inversify container services are resolved from (default: a new one). */
  container?: Container;
  /** Toolkit-level context objects (lowest priority of the chain). */
  context?: ToolExecutionContext;
  /** The parsed build-time manifest (`toolwright-schema`). */
  manifest?: ToolManifest;
  /** Run batches in parallel (default `true`). */
  parallel?: boolean;
  /** Most calls of a batch running at once (default 5). */
  maxConcurrency?: number;
  /** Default timeout and retry policy of every tool. */
  execution?: ExecutionOptions;
  /** Default `maxResultChars` of every tool. */
  maxResultChars?: number;
  /**
   * Sessions unused longer than this are closed (default: never). Use means a
   * `toolkit.session(id)` lookup, a call, a group toggle or a skill change through the session.
   */
  sessionTtlMs?: number;
  /** Limits of executable skills: composition depth (default 3), tool calls per run (25), timeout (60 s). */
  skills?: SkillOptions;
  /**
   * Offer the `equip_tool_groups` meta tool, which lets the model switch tool groups on and off
   * in its own view (`true`: every group; or `{ groups }` to limit it). Off by default; see
   * {@link Toolkit.enableEquipToolGroups}.
   */
  equipToolGroups?: boolean | EquipToolGroupsOptions;
}

/** The least time between two scans for expired sessions (each scan visits every session). */
const SWEEP_GAP_MS = 1_000;

/**
 * Holds tools, groups, skills and sessions, and runs calls.
 *
 * @example
 * const toolkit = new Toolkit({ container });
 * toolkit.createToolGroup('admin', 'Admin tools', false);
 * toolkit.registerTool(WeatherService);
 * const result = await toolkit.callTool({ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' });
 */
export class Toolkit extends ToolView {
  private readonly registry: Registry;
  private readonly groups: Map<string, GroupRecord>;
  private readonly hooks: ToolHook[];
  private readonly eventsSubject: Subject<ToolEvent>;
  private readonly events: Observable<ToolEvent>;
  private readonly sessions = new Map<string, ToolkitSession>();
  /** No session expires before this (a lower bound; `Infinity` when none has a TTL). */
  private nextExpiry = Infinity;
  /** No full scan of the sessions before this. */
  private nextSweepAt = -Infinity;
  private readonly availability: AvailabilityCache;
  private readonly skills: SkillRegistry;
  private readonly meta: MetaTools;
  private readonly viewHost: SessionHost;
  private readonly toolEntries: ToolEntries;
  private readonly sessionTtlMs?: number;
  /** The Inversify container services are resolved from. */
  readonly container: Container;

  constructor(options: ToolkitOptions = {}) {
    const registry = new Registry();
    const groups = new Map<string, GroupRecord>();
    const eventsSubject = new Subject<ToolEvent>();
    const report = callbackFailureReporter(eventsSubject);
    const availability = new AvailabilityCache(registry, report);
    const state = new ActivationState(registry, availability, groups, EMPTY_GROUPS);
    const container = options.container ?? new Container();
    const host: SessionHost = {
      core: {
        registry,
        ajv: createAjv(),
        hooks: [],
        events: eventsSubject,
        report,
        deadlines: new DeadlineScheduler(),
        defaults: resolveExecution(DEFAULT_EXECUTION, options.execution),
        container,
        context: options.context ?? ToolExecutionContext.EMPTY,
        asyncListeners: new Map(),
        ...(options.maxResultChars !== undefined ? { maxResultChars: options.maxResultChars } : {}),
      },
      parallel: options.parallel ?? true,
      maxConcurrency: Math.max(1, options.maxConcurrency ?? 5),
      viewChanged: (s) => this.viewChanged(s),
      activateSkill: (view, s, name) => this.skills.activate(view, s, name),
      deactivateSkill: (view, s) => this.skills.deactivate(view, s),
      dispatch: (view, s, available, call, callOptions, frame) => this.meta.dispatch(view, s, available, call, callOptions, frame),
      renderPrompt: (s, renderOptions) => this.renderPromptOf(s, renderOptions),
      closeSession: (session) => this.closeSession(session),
    };
    super(host, state);
    this.viewHost = host;
    this.registry = registry;
    this.groups = groups;
    this.hooks = host.core.hooks as ToolHook[];
    this.eventsSubject = eventsSubject;
    this.events = GuardedObservable.of(eventsSubject, report, 'events$');
    this.container = container;
    this.toolEntries = new ToolEntries(container, options.manifest);
    if (options.sessionTtlMs !== undefined) this.sessionTtlMs = options.sessionTtlMs;
    this.availability = availability;
    this.skills = new SkillRegistry({
      hasTool: (name) => registry.has(name),
      toolNames: () => [...registry.entries()].filter((e) => e.source !== 'global').map((e) => e.name),
      skillsChanged: () => {
        this.meta.skillsChanged();
        this.registryChanged();
      },
      skillChanged: (s, previous) => this.skillChanged(s, previous),
    });
    this.meta = new MetaTools({
      core: host.core,
      skills: this.skills,
      limits: resolveSkillOptions(options.skills),
      parallel: host.parallel,
      maxConcurrency: host.maxConcurrency,
      entryFor: (tool) => this.toolEntries.agentEntry(tool, {}, 'global'),
      putEntries: (entries) => registry.add(entries),
      removeEntry: (name) => void registry.remove(name),
      groups: () => this.groups.values(),
      viewFor: (sessionId) => {
        if (sessionId === undefined) return { view: this, state: this.state };
        const session = this.session(sessionId);
        return { view: session, state: session.stateForHost };
      },
    });
    const equip = options.equipToolGroups;
    if (equip) this.enableEquipToolGroups(equip === true ? {} : equip);
  }

  /**
   * Every call event, progress report and change, as a typed discriminated union. A subscriber
   * that throws cannot crash the process or fail a call: its failure comes back as a
   * `callback_failed` event.
   */
  get events$(): Observable<ToolEvent> {
    return this.events;
  }

  /**
   * Creates (or updates) a tool group. Groups named by `@ToolService`/`@Tool`/`registration().group()`
   * that were never created are created active.
   */
  createToolGroup(name: string, description = '', active = true): void {
    const existing = this.groups.get(name);
    const described = existing === undefined || existing.description !== description;
    if (existing) {
      existing.description = description;
      existing.activeByDefault = active;
    } else this.addGroup(name, description, active);
    const listed = described && this.meta.groupsChanged();
    const base = this.state.baseGroups;
    if (active !== base.has(name)) {
      this.state.baseGroups = this.availability.toggled(base, name, active);
      this.viewChanged(this.state);
    }
    if (listed) this.registryChanged();
  }

  /**
   * Registers a tool service class (resolved from the container), an instance of one, or an
   * `AgentTool` object.
   *
   * @returns the registered tools.
   * @throws ToolkitError `DUPLICATE_TOOL`, `MISSING_NAME`, `MISSING_DESCRIPTION`, `INVALID_NAME`,
   *   `UNRESOLVABLE_PARAMETER`, `DECORATOR_METADATA_MISSING`, `REFLECT_METADATA_MISSING`,
   *   `INVALID_DEFINITION`, `MANIFEST_MISMATCH`, `SERVICE_RESOLUTION_FAILED`.
   */
  registerTool(target: ToolTarget, options: RegisterOptions = {}): AgentTool[] {
    return this.registerAll([target], options);
  }

  /** Starts a fluent registration (`.tool(...).group(...).presetParameters(...).apply()`). */
  registration(): ToolRegistration {
    return new ToolRegistration((targets, options) => this.registerAll(targets, options));
  }

  /** Removes a tool by name; returns whether it existed. */
  unregisterTool(name: string): boolean {
    const removed = this.registry.remove(name);
    if (removed) this.registryChanged();
    return removed;
  }

  /** A registered tool by name (enabled or not). */
  getTool(name: string): AgentTool | undefined {
    return this.registry.get(name)?.tool;
  }

  /** Every registered tool, enabled or not. */
  getAllTools(): AgentTool[] {
    return [...this.registry.entries()].map((e) => e.tool);
  }

  /** Adds a hook to the pipeline around every call (hooks run in the order added). */
  use(hook: ToolHook): this {
    this.hooks.push(hook);
    return this;
  }

  /**
   * Registers a skill (see {@link defineSkill}). The first one brings the `list_skills` and
   * `invoke_skill` meta tools (global: enabled in every view, also under a skill).
   *
   * @throws ToolkitError `INVALID_DEFINITION` (a malformed skill, or a name taken),
   *   `MISSING_REQUIRED_TOOLS` (a `requiredTools` entry is not registered), `DUPLICATE_TOOL`
   *   (one of your tools already uses a meta tool's name).
   *
   * @example
   * toolkit.registerTool(SearchService);
   * toolkit.registerSkill(defineSkill({ name: 'research', description: 'Look things up',
   *   tools: ['web_search'], requiredTools: ['web_search'], instructions: 'Cite sources.' }));
   */
  registerSkill(skill: SkillDefinition): void {
    this.skills.register(skill);
  }

  /**
   * The registered skills, in registration order.
   *
   * @example
   * toolkit.getSkills().map((s) => s.name); // ['research', 'deploy']
   */
  getSkills(): SkillDefinition[] {
    return this.skills.list();
  }

  /**
   * A registered skill by name.
   *
   * @example
   * toolkit.getSkill('research')?.instructions;
   */
  getSkill(name: string): SkillDefinition | undefined {
    return this.skills.get(name)?.skill;
  }

  /**
   * Offers the opt-in `equip_tool_groups` meta tool: the model switches groups on (`add`) or off
   * (`remove`) in the view it calls from (its session), or lists them (no arguments). Limit it
   * with `{ groups }` so that groups such as `admin` stay out of the model's reach. Calling it
   * again updates the options. Same as `new Toolkit({ equipToolGroups })`.
   *
   * @throws ToolkitError `DUPLICATE_TOOL` when a tool of yours is already named `equip_tool_groups`.
   *
   * @example
   * toolkit.enableEquipToolGroups({ groups: ['weather', 'email'] });
   * await session.callTool({ id: 'c1', name: 'equip_tool_groups', arguments: { add: ['email'] } });
   */
  enableEquipToolGroups(options: EquipToolGroupsOptions = {}): void {
    this.meta.enableEquip(options);
    this.registryChanged();
  }

  /**
   * Withdraws `equip_tool_groups`; returns whether it was offered. Groups it switched stay as they are.
   *
   * @example
   * toolkit.disableEquipToolGroups();
   */
  disableEquipToolGroups(): boolean {
    const removed = this.meta.disableEquip();
    if (removed) this.registryChanged();
    return removed;
  }

  /**
   * The view of one session, made on first lookup: its own active groups and skill (starting
   * from the toolkit's current base groups, with no skill), sharing tools, hooks and events with
   * the toolkit. Each lookup restarts the session's TTL (and `ttlMs` replaces it).
   *
   * @example
   * const session = toolkit.session(req.conversationId, { ttlMs: 30 * 60_000 });
   * await session.callTools(calls);
   */
  session(id: string, options: SessionOptions = {}): ToolkitSession {
    const now = this.sweepSessions();
    let session = this.sessions.get(id);
    if (session !== undefined && session.expiresAt <= now) {
      this.closeSession(session);
      session = undefined;
    }
    if (!session) {
      const state = new ActivationState(this.registry, this.availability, this.groups, this.state.baseGroups, id);
      session = new ToolkitSession(this.viewHost, state, options.ttlMs ?? this.sessionTtlMs);
      this.sessions.set(id, session);
      session.touch();
    } else session.touch(options.ttlMs);
    if (session.expiresAt < this.nextExpiry) this.nextExpiry = session.expiresAt;
    return session;
  }

  /**
   * The ids of the open sessions (expired ones are closed first).
   *
   * @example
   * toolkit.getSessionIds().length;
   */
  getSessionIds(): string[] {
    const now = this.sweepSessions();
    const ids: string[] = [];
    for (const session of this.sessions.values()) {
      if (session.expiresAt <= now) this.closeSession(session);
      else ids.push(session.id);
    }
    return ids;
  }

  /** The number of open sessions (expired ones may still be counted until the next lookup). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  private closeSession(session: ToolkitSession): void {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    const state = session.stateForHost;
    // A skill active at close still gets its onDeactivate (nobody is left to hear a failure).
    if (!state.closed && state.skill !== undefined) void this.skills.deactivate(session, state).catch(() => undefined);
    state.complete();
  }

  /**
   * Closes expired sessions to free them; returns the time it read. A no-op (no scan) until the
   * earliest expiry is due, and at most one scan per second: a session is checked for expiry
   * whenever it is used or looked up, so the scan only reclaims memory.
   */
  private sweepSessions(): number {
    const now = Date.now();
    if (now < this.nextExpiry || now < this.nextSweepAt) return now;
    this.nextSweepAt = now + SWEEP_GAP_MS;
    let next = Infinity;
    for (const session of this.sessions.values()) {
      if (session.expiresAt <= now) this.closeSession(session);
      else if (session.expiresAt < next) next = session.expiresAt;
    }
    this.nextExpiry = next;
    return now;
  }

  private viewChanged(state: ActivationState): void {
    this.announce(state, (base) => ({ type: 'groups_changed', ...base, activeGroups: [...state.activeGroups] }));
  }

  private skillChanged(state: ActivationState, previous: string | undefined): void {
    const skill = state.skill?.name;
    this.announce(state, (base) => ({ type: 'skill_changed', ...base, ...(skill !== undefined ? { skill } : {}), ...(previous !== undefined ? { previous } : {}) }));
  }

  /** Tells the view's subscribers; for `events$` listeners, `event` then the view's `tools_changed`. */
  private announce(state: ActivationState, event: (base: { timestamp: number; sessionId?: string }) => ToolEvent): void {
    state.changed();
    if (!this.eventsSubject.observed) return;
    const base = { timestamp: Date.now(), ...(state.sessionId !== undefined ? { sessionId: state.sessionId } : {}) };
    this.eventsSubject.next(event(base));
    this.eventsSubject.next({ type: 'tools_changed', ...base, tools: [...state.enabledNames()] });
  }

  private renderPromptOf(state: ActivationState, options: RenderPromptOptions): string {
    const skill = state.skill;
    return renderPrompt(
      {
        activeSkill: skill !== undefined ? this.skills.get(skill.name)?.skill : undefined,
        tools: state.activeTools(),
        availability: state.availability(),
        groups: state.groupStates(),
        skills: this.skills.list(),
        equipTool: this.meta.equipEnabled && this.registry.has('equip_tool_groups') ? 'equip_tool_groups' : undefined,
      },
      options,
    );
  }

  private registryChanged(): void {
    this.state.changed();
    for (const session of this.sessions.values()) session.stateForHost.changed();
    if (this.eventsSubject.observed) {
      this.eventsSubject.next({ type: 'tools_changed', timestamp: Date.now(), tools: [...this.state.enabledNames()] });
    }
  }

  /**
   * A new group: on (when `active`) in the toolkit's view and in every open session, since none
   * of them could have switched it off yet. Tells nobody: the caller does.
   */
  private addGroup(name: string, description: string, active: boolean): void {
    this.groups.set(name, { name, description, activeByDefault: active });
    if (!active) return;
    // views that shared one group set keep sharing one (the new one)
    const add = (state: ActivationState): void => {
      state.baseGroups = this.availability.toggled(state.baseGroups, name, true);
    };
    add(this.state);
    for (const session of this.sessions.values()) add(session.stateForHost);
  }

  /** Registers all targets or, on any definition error, nothing (container bindings it made are undone). */
  private registerAll(targets: readonly ToolTarget[], options: RegisterOptions): AgentTool[] {
    const bound: Constructor[] = [];
    try {
      const entries = targets.flatMap((target) => this.toolEntries.entriesFor(target, options, bound));
      const presetTools = Object.keys(options.presets ?? {}).filter((name) => !entries.some((e) => e.name === name));
      if (presetTools.length) {
        throw new ToolkitError(
          'INVALID_DEFINITION',
          `Presets name tool(s) ${presetTools.map((n) => `'${n}'`).join(', ')} that this registration does not register. ` +
            `It registers: ${entries.map((e) => e.name).join(', ') || '(nothing)'}.`,
        );
      }
      this.addEntries(entries);
      return entries.map((e) => e.tool);
    } catch (error) {
      for (const ctor of bound) this.toolEntries.unbindQuietly(ctor);
      throw error;
    }
  }

  private addEntries(entries: readonly ToolEntry[]): void {
    const seen = new Map<string, ToolEntry>();
    for (const entry of entries) {
      const previous = this.registry.get(entry.name) ?? seen.get(entry.name);
      if (previous) {
        throw new ToolkitError(
          'DUPLICATE_TOOL',
          `Tool name '${entry.name}' is taken: ${previous.owner} already registered it, and ${entry.owner} registers it again. ` +
            'Tool names are unique: rename one with @Tool({ name }) (or the AgentTool name).',
          { tool: entry.name },
        );
      }
      seen.set(entry.name, entry);
    }
    for (const entry of entries) {
      if (isAsyncTool(entry.target)) entry.target.setCallback((result) => this.asyncCompleted(entry, result));
    }
    // groups named by the tools are created (on) silently: the one change notification follows
    let created = false;
    for (const entry of entries) {
      if (entry.group !== undefined && !this.groups.has(entry.group)) {
        this.addGroup(entry.group, '', true);
        created = true;
      }
    }
    if (created) this.meta.groupsChanged();
    this.registry.add(entries);
    this.registryChanged();
  }

  private asyncCompleted(entry: ToolEntry, produced: ToolResult): void {
    completeAsyncToolCall(this.viewHost.core, entry, produced);
  }
}
