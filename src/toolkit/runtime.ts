import { newContainer, releaseService, type ToolkitContainer } from '../di/services';
import { Subject, type Observable } from 'rxjs';
import { isAsyncTool, type AgentTool } from '../model/agent-tool';
import type { ClientRequestHandler } from '../model/client-requests';
import { ToolExecutionContext } from '../model/execution-context';
import { GuardedObservable, type CallbackFailureReporter } from '../utils/guarded-observable';
import { checkedLogger, writeLog, type ToolwrightLogger } from '../model/logger';
import type { CallLink } from '../executor/call/call-link';
import { completeAsyncToolCall } from '../executor/async/async-calls';
import { BatchRunner } from '../executor/batch';
import type { ExecutorParts } from '../executor/executor-parts';
import { DeadlineScheduler } from '../executor/deadlines';
import type { ToolEvent } from '../executor/event-types';
import { executionDefaults } from '../executor/execution-settings';
import type { Authorize } from '../executor/authorization';
import type { RepairMode } from '../model/repair-types';
import type { ToolHook } from '../executor/hook-types';
import type { RemoteRunner } from '../executor/remote/remote-types';
import { SchemaValidators } from '../executor/validation/validation';
import { ToolkitError } from '../errors';
import type { Constructor } from '../metadata/records';
import { ActivationState, type ViewAnnouncer } from './activation';
import { AvailabilityCache, EMPTY_GROUPS, type GroupRecord } from './availability';
import { callbackFailureReporter } from './callback-failures';
import { Dispatcher } from './dispatcher';
import type { RemoteRouter, ToolkitExtension } from './extension';
import { MetaTools } from './meta-tools';
import type { RegisterOptions, ToolTarget } from './registration';
import { Registry, type ToolEntry } from './registry';
import { SessionTable } from './sessions/session-table';
import { resolveSkillOptions, type SkillDefinition } from './skills/skill-definition';
import { SkillRegistry } from './skills/skill-registry';
import { ToolEntries } from './tool-entries';
import { logToolkitEvents } from './toolkit-logging';
import { Catalog } from '../resources/catalog';
import { CatalogBatch } from '../resources/catalog-batch';
import { checkRegistration, warnUnboundPresets } from './registration-checks';
import { CatalogViews } from '../resources/catalog-views';
import type { SkillRunParts } from './skills/skill-run';
import type { ToolView, ViewParts } from './tool-view';
import type { ToolkitOptions } from './toolkit-options';

/**
 * @internal The working parts of one toolkit and the operations they need of each other: the
 * executor's parts, the registry, groups, skills, meta tools, sessions and the one dispatcher.
 * The `Toolkit` is its public face (and its own view); each part is given the few operations it uses.
 */
export class ToolkitRuntime implements SkillRunParts, ViewAnnouncer, ToolkitExtension {
  readonly registry = new Registry();
  readonly validators = new SchemaValidators();
  readonly hooks: ToolHook[] = [];
  readonly events = new Subject<ToolEvent>();
  readonly report: CallbackFailureReporter;
  readonly deadlines = new DeadlineScheduler();
  readonly defaults: ExecutorParts['defaults'];
  readonly container: ToolkitContainer;
  readonly context: ToolExecutionContext;
  readonly maxResultChars: number | undefined;
  readonly clientRequests: ClientRequestHandler | undefined;
  readonly authorize: Authorize | undefined;
  readonly repair: RepairMode | undefined;
  /** Where registrations and call events are logged (`undefined`: nowhere, at no cost). */
  readonly logger: ToolwrightLogger | undefined;
  /** Where the context of the work in progress comes from (set by the Nest module: the request's caller). */
  ambient: (() => ToolExecutionContext | undefined) | undefined = undefined;
  readonly asyncListeners = new Map<string, CallLink>();
  /** The routes of tools whose calls run elsewhere (`queueTools`); `undefined` while there are none. */
  remote: RemoteRouter | undefined = undefined;
  readonly groups = new Map<string, GroupRecord>();
  /** The resources, resource templates and prompts of the registered services. */
  readonly catalog = new Catalog();
  /** Runs the batches of every view and skill run by the toolkit's `parallel` and `maxConcurrency`. */
  readonly batches: BatchRunner;
  /** The parts every view of the toolkit works with. */
  readonly viewParts: ViewParts;
  /** `events` for subscribers: a subscriber's failure becomes a `callback_failed` event. */
  readonly events$: Observable<ToolEvent>;
  /** The state of the toolkit's own view. */
  readonly state: ActivationState;
  readonly skills: SkillRegistry;
  readonly meta: MetaTools;
  readonly sessions: SessionTable;
  private readonly availability: AvailabilityCache;
  private readonly toolEntries: ToolEntries;
  /** The one way into the call run, for views and skill runs. */
  readonly dispatcher: Dispatcher;
  /** The toolkit's own view: the `Toolkit`, which {@link attach}es itself once constructed. */
  private root!: ToolView;

  constructor(options: ToolkitOptions) {
    this.report = callbackFailureReporter(this.events);
    this.events$ = GuardedObservable.of(this.events, this.report, 'events$');
    this.defaults = executionDefaults(options.execution);
    this.container = options.container ?? newContainer();
    this.context = options.context ?? ToolExecutionContext.EMPTY;
    this.maxResultChars = options.maxResultChars;
    this.clientRequests = options.clientRequests;
    if (options.authorize !== undefined && typeof options.authorize !== 'function') {
      throw new ToolkitError('INVALID_OPTIONS', 'new Toolkit({ authorize }): authorize must be a function (request) => true | false | \'approval\' (or a Promise of one).');
    }
    this.authorize = options.authorize;
    if (options.repair !== undefined && options.repair !== 'safe' && options.repair !== 'off') {
      throw new ToolkitError('INVALID_OPTIONS', `new Toolkit({ repair }): repair must be 'safe' or 'off', got ${JSON.stringify(options.repair)}.`);
    }
    this.repair = options.repair;
    this.batches = new BatchRunner(options, (call) => this.registry.isSequential(call.name));
    this.availability = new AvailabilityCache(this.registry, this.report);
    this.state = new ActivationState(this.registry, this.availability, this.groups, this, EMPTY_GROUPS);
    this.toolEntries = new ToolEntries(this.container, options.manifest);
    this.skills = new SkillRegistry(this.registry);
    this.meta = new MetaTools(this, this.skills, this.toolEntries, resolveSkillOptions(options.skills));
    this.dispatcher = new Dispatcher(this, this.meta, (view, state) => this.sessions.close(view, state));
    this.viewParts = { listing: this, calls: this.dispatcher, skills: this.skills, batches: this.batches, catalog: new CatalogViews(this, this.catalog), meta: this.meta };
    const newState = (sessionId: string): ActivationState => new ActivationState(this.registry, this.availability, this.groups, this, this.state.baseGroups, sessionId);
    this.sessions = new SessionTable(this.viewParts, newState, options.sessionTtlMs);
    this.logger = checkedLogger(options.logger, 'new Toolkit({ logger })');
    if (this.logger) logToolkitEvents(this.events, this.logger);
  }

  /** Makes `view` (the `Toolkit`, whose state is {@link state}) the toolkit's own view. */
  attach(view: ToolView): void {
    this.root = view;
  }

  /** How the calls of `entry` run elsewhere: its route's runner (`queueTools`), else `undefined`. */
  runnerFor(entry: ToolEntry): RemoteRunner | undefined {
    return this.remote?.runnerFor(entry);
  }

  // ------------------------------------------------------------------ what skill runs and the views' states need

  viewChanged(state: ActivationState): void {
    this.announce(state, (base) => ({ type: 'groups_changed', ...base, activeGroups: [...state.activeGroups] }));
  }

  skillChanged(state: ActivationState, previous: string | undefined): void {
    const skill = state.skill?.name;
    this.announce(state, (base) => ({ type: 'skill_changed', ...base, ...(skill !== undefined ? { skill } : {}), ...(previous !== undefined ? { previous } : {}) }));
  }

  viewFor(sessionId: string | undefined): { view: ToolView; state: ActivationState } {
    if (sessionId === undefined) return { view: this.root, state: this.state };
    const session = this.sessions.session(sessionId, {});
    return { view: session, state: session.sessionState };
  }

  // ------------------------------------------------------------------ changes

  /** Creates (or updates) a group; see `Toolkit.createToolGroup`. */
  createGroup(name: string, description: string, active: boolean): void {
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
      this.state.groupsChanged();
    }
    if (listed) this.registryChanged();
  }

  /** Registers all targets or, on any definition error, nothing (container bindings it made are undone). */
  register(targets: readonly ToolTarget[], options: RegisterOptions): AgentTool[] {
    const bound: Constructor[] = [];
    try {
      const members = new CatalogBatch();
      const entries = targets.flatMap((target) => this.toolEntries.entriesFor(target, options, bound, members));
      const keys = [...entries.map((e) => e.name), ...members.presetKeys()];
      const presetTools = Object.keys(options.presets ?? {}).filter((name) => !keys.includes(name));
      if (presetTools.length) {
        throw new ToolkitError(
          'INVALID_DEFINITION',
          `Presets name tool(s) ${presetTools.map((n) => `'${n}'`).join(', ')} that this registration does not register. ` +
            `It registers: ${keys.join(', ') || '(nothing)'}.`,
        );
      }
      checkRegistration(entries, members, this.remote);
      this.addEntries(entries, members);
      if (this.logger) writeLog(this.logger, 'debug', { event: 'tools_registered', tools: entries.map((e) => e.name), groups: [...new Set(entries.flatMap((e) => (e.group !== undefined ? [e.group] : [])))] }, `registered ${entries.length} tool(s)`);
      warnUnboundPresets(entries, () => this.remote);
      return entries.map((e) => e.tool);
    } catch (error) {
      for (const ctor of bound) releaseService(this.container, ctor);
      throw error;
    }
  }

  /** Removes a tool by name; returns whether it existed. */
  unregister(name: string): boolean {
    const removed = this.registry.remove(name);
    if (removed) this.registryChanged();
    return removed;
  }

  /** Registers a skill and rebuilds the skill meta tools (or, when they cannot follow, registers nothing). */
  registerSkill(skill: SkillDefinition): void {
    this.skills.register(skill);
    try {
      this.meta.skillsChanged();
    } catch (error) {
      this.skills.forget(skill.name);
      throw error;
    }
    if (this.logger) writeLog(this.logger, 'debug', { event: 'skill_registered', skill: skill.name }, `registered skill ${skill.name}`);
    this.registryChanged();
  }

  /** The registry changed: every view's tools may have. */
  registryChanged(): void {
    this.state.changed();
    for (const session of this.sessions.values()) session.sessionState.changed();
    if (this.events.observed) {
      this.events.next({ type: 'tools_changed', timestamp: Date.now(), tools: [...this.state.enabledNames()] });
    }
  }

  /** Tells the view's subscribers; for `events$` listeners, `event` then the view's `tools_changed`. */
  private announce(state: ActivationState, event: (base: { timestamp: number; sessionId?: string }) => ToolEvent): void {
    state.changed();
    if (!this.events.observed) return;
    const base = { timestamp: Date.now(), ...(state.sessionId !== undefined ? { sessionId: state.sessionId } : {}) };
    this.events.next(event(base));
    this.events.next({ type: 'tools_changed', ...base, tools: [...state.enabledNames()] });
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
    for (const session of this.sessions.values()) add(session.sessionState);
  }

  private addEntries(entries: readonly ToolEntry[], members: CatalogBatch): void {
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
    this.catalog.check(members);
    for (const entry of entries) {
      const target = entry.target;
      if (isAsyncTool(target)) target.setCallback((result) => completeAsyncToolCall(this, entry, result));
    }
    // groups named by the tools are created (on) silently: the one change notification follows
    let created = false;
    for (const group of [...entries.map((entry) => entry.group), ...members.groups()]) {
      if (group !== undefined && !this.groups.has(group)) {
        this.addGroup(group, '', true);
        created = true;
      }
    }
    if (created) this.meta.groupsChanged();
    this.registry.add(entries);
    this.catalog.add(members);
    this.registryChanged();
  }
}
