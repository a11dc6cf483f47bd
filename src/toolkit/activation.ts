import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { AgentTool } from '../model/agent-tool';
import type { ToolSchema } from '../model/tool-types';
import { GuardedObservable } from '../utils/guarded-observable';
import { NO_OPTIONS, type AvailabilityGate, type CallOptions, type GateRefusal } from '../executor/executor-parts';
import { ToolkitError } from '../errors';
import { EMPTY_GROUPS, groupInactive, permitsGroup, type AvailabilityCache, type Computed, type GroupRecord, type SkillLayer, type ToolAvailability } from './availability';
import type { Registry, ToolEntry } from './registry';

/** @internal The Observables of a view, made on first subscription. */
interface Reactive {
  readonly changes: BehaviorSubject<number>;
  /** `changes` read-only (piping a Subject itself would make a Subject again). */
  readonly source: Observable<number>;
  tools$?: Observable<AgentTool[]>;
  availability$?: Observable<readonly ToolAvailability[]>;
  skill$?: Observable<string | undefined>;
}

/** @internal Where the changes of a view are announced (its subscribers, and `events$`): the toolkit. */
export interface ViewAnnouncer {
  /** A view switched groups. */
  viewChanged(state: ActivationState): void;
  /** A view's skill changed (`previous`: the skill before). */
  skillChanged(state: ActivationState, previous: string | undefined): void;
}

/** What a view or a skill run's scope answers about a tool: the gate of its calls is made of it. */
interface GateSource {
  isEnabled(entry: ToolEntry): boolean;
  whyDisabled(entry: ToolEntry): string;
  /** Why no call may go on any more (a closed or expired session), or `undefined` while open. */
  closedReason(): string | undefined;
}

/**
 * The refusal of a call of `entry` by `source`: the calls of tools it does not enable, and after the
 * call's `before` hooks every call once the view closed (before them the dispatcher refused a closed
 * view's calls already: the first check reads no clock).
 */
function refusalBy(source: GateSource, entry: ToolEntry, afterHooks: boolean): GateRefusal | undefined {
  if (afterHooks) {
    const closed = source.closedReason();
    if (closed !== undefined) return { code: 'SESSION_CLOSED', message: closed };
  }
  return source.isEnabled(entry) ? undefined : { code: 'TOOL_DISABLED', message: source.whyDisabled(entry) };
}

/**
 * @internal Which tools one view (the toolkit, or one session) has enabled: its base groups, its
 * skill layer, and the computed availability (shared through the {@link AvailabilityCache}).
 * Deliberately small: a session that never subscribed or called holds a few references.
 */
export class ActivationState implements GateSource {
  /** The availability gate of the calls made in this view (made once: a call allocates nothing for it). */
  readonly refusalOf: AvailabilityGate = (entry, afterHooks) => refusalBy(this, entry, afterHooks);
  /** The base groups (immutable; replaced on change, shared until then). */
  private base: ReadonlySet<string>;
  private layer: SkillLayer | undefined = undefined;
  private computed: Computed | undefined = undefined;
  private stale = true;
  private tools: AgentTool[] | undefined = undefined;
  private reactive: Reactive | undefined = undefined;
  /** `{ sessionId }`, frozen: the options of a session's calls made without options (made on first use). */
  private ownOptions: CallOptions | undefined = undefined;
  /** Set once the view is closed (a session that expired or was closed). */
  closed = false;
  /** When the view expires (ms since the epoch; `Infinity`: never). Sessions with a TTL set it. */
  expiresAt = Infinity;
  /** The skill hooks of this view run one after the other, in the order of the changes. */
  hookChain: Promise<void> | undefined = undefined;
  /** Who wants to know when the view closes (made on first use). */
  private closeListeners: (() => void)[] | undefined = undefined;

  constructor(
    private readonly registry: Registry,
    private readonly cache: AvailabilityCache,
    private readonly groupRecords: ReadonlyMap<string, GroupRecord>,
    private readonly announcer: ViewAnnouncer,
    base: ReadonlySet<string>,
    readonly sessionId?: string,
  ) {
    this.base = base;
  }

  // ------------------------------------------------------------------ groups and skill

  /** The base groups, whatever the skill layer says. */
  get baseGroups(): ReadonlySet<string> {
    return this.base;
  }

  set baseGroups(groups: ReadonlySet<string>) {
    this.base = groups;
  }

  /** The groups in effect: the skill layer's while a skill is active, else the base groups. */
  get activeGroups(): ReadonlySet<string> {
    return this.layer !== undefined ? this.layer.groups : this.base;
  }

  /** Switches groups on or off where they take effect (see below). Returns whether anything changed. */
  setGroups(names: readonly string[], on: boolean): boolean {
    const toggle = (from: ReadonlySet<string>, value: boolean): ReadonlySet<string> => {
      let groups = from;
      for (const name of names) groups = this.cache.toggled(groups, name, value);
      return groups;
    };
    const layer = this.layer;
    if (layer === undefined) {
      const base = toggle(this.base, on);
      if (base === this.base) return false;
      this.base = base;
      return true;
    }
    // During a skill, a group switched on belongs to the skill and ends with it; a group switched
    // off is revoked for the view: off in the base too, so its tools stop now and after the skill.
    const groups = toggle(layer.groups, on);
    const base = on ? this.base : toggle(this.base, false);
    if (groups === layer.groups && base === this.base) return false;
    this.layer = { ...layer, groups };
    this.base = base;
    return true;
  }

  /** The active skill layer. */
  get skill(): SkillLayer | undefined {
    return this.layer;
  }

  set skill(layer: SkillLayer | undefined) {
    this.layer = layer;
  }

  /**
   * The options a call made in this view runs with: a session's calls carry the session's own id,
   * whatever `sessionId` the caller's options name (no caller makes a call run as another session).
   * Allocates only for a session's call that brings options of its own.
   */
  callOptions(options: CallOptions): CallOptions {
    const sessionId = this.sessionId;
    if (sessionId === undefined || options.sessionId === sessionId) return options;
    if (options === NO_OPTIONS) return (this.ownOptions ??= Object.freeze({ sessionId }));
    return { ...options, sessionId };
  }

  // ------------------------------------------------------------------ availability

  private current(): Computed {
    const computed = this.computed;
    if (computed !== undefined && !this.stale && computed.registryVersion === this.registry.version) return computed;
    this.stale = false;
    this.tools = undefined;
    return (this.computed = this.cache.get(this.base, this.layer));
  }

  /** O(1): one version check and one Map lookup. */
  isEnabled(entry: ToolEntry): boolean {
    return this.current().enabled.has(entry);
  }

  closedReason(): string | undefined {
    return this.closed || this.expired() ? closedError(this.sessionId).message : undefined;
  }

  whyDisabled(entry: ToolEntry): string {
    const layer = this.layer;
    if (layer !== undefined && !layer.scope.has(entry.name)) {
      return `Tool '${entry.name}' is disabled: skill '${layer.name}' is active and does not include it.`;
    }
    return groupInactive(entry);
  }

  /**
   * True when this view permits tools of `group` to an executable skill's run, with `grants`
   * (the run's own `grantGroups`; none: what the view's groups permit, as to its resources and
   * prompts): the active scoping skill's grants cover its own scope only.
   */
  permits(group: string | undefined, grants: ReadonlySet<string> = EMPTY_GROUPS): boolean {
    const layer = this.layer;
    return permitsGroup(group, this.base, layer !== undefined && layer.grants.size > 0 ? { ...layer, grants: EMPTY_GROUPS } : layer, grants);
  }

  /** Names of the enabled tools (frozen, shared). */
  enabledNames(): string[] {
    const computed = this.current();
    return (computed.names ??= Object.freeze(computed.entries.map((e) => e.name))) as string[];
  }

  /** The enabled tools: this view's own array (a new one after each change). */
  activeTools(): AgentTool[] {
    const computed = this.current();
    return (this.tools ??= Object.freeze(computed.entries.map((e) => e.tool)) as AgentTool[]);
  }

  /** Each enabled tool with its source (frozen, shared). */
  availability(): readonly ToolAvailability[] {
    return this.current().availability;
  }

  /** The enabled tools' schemas (frozen, shared). */
  toolSchemas(): ToolSchema[] {
    const computed = this.current();
    return (computed.schemas ??= Object.freeze(computed.entries.map((e) => e.definition))) as ToolSchema[];
  }

  /** Cached provider definitions (shared), recomputed only after a change. */
  cachedDefs<T>(key: string, make: () => T): T {
    const computed = this.current();
    let defs = computed.defs.get(key) as T | undefined;
    if (defs === undefined) computed.defs.set(key, (defs = make()));
    return defs;
  }

  /** True when the toolkit has a group of that name. */
  hasGroup(name: string): boolean {
    return this.groupRecords.has(name);
  }

  /** @throws ToolkitError `UNKNOWN_GROUP` naming the names that are no group, and the known ones. */
  checkGroups(names: readonly string[]): void {
    const unknown = names.filter((n) => !this.hasGroup(n));
    if (unknown.length === 0) return;
    const known = this.groupStates().map((g) => g.name);
    throw new ToolkitError(
      'UNKNOWN_GROUP',
      `Unknown tool group(s): ${unknown.map((n) => `'${n}'`).join(', ')}. Known groups: ${known.join(', ') || '(none)'}; create one with toolkit.createToolGroup(name, description, active).`,
    );
  }

  /** Groups known to the toolkit with this view's on/off state (in effect). */
  groupStates(): { name: string; description: string; active: boolean }[] {
    const active = this.activeGroups;
    return [...this.groupRecords.values()].map((g) => ({ name: g.name, description: g.description, active: active.has(g.name) }));
  }

  // ------------------------------------------------------------------ reactivity

  private rx(): Reactive {
    if (this.reactive === undefined) {
      const changes = new BehaviorSubject(0);
      this.reactive = { changes, source: GuardedObservable.of(changes, this.cache.report, this.sessionId === undefined ? 'toolkit view' : `session '${this.sessionId}'`) };
    }
    return this.reactive;
  }

  /** Ticks on every change of the view: at once, then synchronously on each change. */
  get changes$(): Observable<number> {
    return this.rx().source;
  }

  /** The enabled tools: the current list at once, then a new list on every change. */
  get activeTools$(): Observable<AgentTool[]> {
    const rx = this.rx();
    return (rx.tools$ ??= rx.source.pipe(map(() => this.activeTools())));
  }

  /** The availability: the current one at once, then on every change. */
  get availability$(): Observable<readonly ToolAvailability[]> {
    const rx = this.rx();
    return (rx.availability$ ??= rx.source.pipe(map(() => this.availability())));
  }

  /** The active skill's name (or `undefined`): the current one at once, then each change. */
  get activeSkill$(): Observable<string | undefined> {
    const rx = this.rx();
    return (rx.skill$ ??= rx.source.pipe(
      map(() => this.layer?.name),
      distinctUntilChanged(),
    ));
  }

  /** Announces that this view switched groups (to its subscribers and `events$`). */
  groupsChanged(): void {
    this.announcer.viewChanged(this);
  }

  /** Announces that this view's skill changed from `previous` (to its subscribers and `events$`). */
  skillChanged(previous: string | undefined): void {
    this.announcer.skillChanged(this, previous);
  }

  /** Marks the state changed and tells subscribers (synchronously). */
  changed(): void {
    this.stale = true;
    this.tools = undefined;
    const rx = this.reactive;
    if (rx !== undefined) rx.changes.next(rx.changes.value + 1);
  }

  /** True once an open view's time ran out (it is not closed yet: whoever notices closes it). */
  expired(): boolean {
    return !this.closed && this.expiresAt !== Infinity && this.expiresAt <= Date.now();
  }

  /** Calls `listener` once when the view closes (at once when it has): what is kept for a session ends with it. Listeners must not throw. */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else (this.closeListeners ??= []).push(listener);
  }

  /** Closes the view: its Observables complete, its close listeners run. */
  complete(): void {
    this.closed = true;
    this.reactive?.changes.complete();
    const listeners = this.closeListeners;
    this.closeListeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }
}


/**
 * @internal The availability gate of a skill run: the global meta tools, and the tools of the
 * skill's scope that the calling view permits (its groups, plus the skill's own `grantGroups`).
 * The view's skill layer does not matter otherwise: a run acts as if its skill were active.
 */
export class SkillRunScope implements GateSource {
  /** The availability gate of the calls the run makes (made once per run). */
  readonly refusalOf: AvailabilityGate = (entry, afterHooks) => refusalBy(this, entry, afterHooks);

  constructor(
    private readonly skill: string,
    private readonly scope: ReadonlySet<string>,
    private readonly grants: ReadonlySet<string>,
    private readonly state: ActivationState,
    private readonly registry: Registry,
  ) {}

  isEnabled(entry: ToolEntry): boolean {
    return entry.source === 'global' || (this.scope.has(entry.name) && this.state.permits(entry.group, this.grants));
  }

  whyDisabled(entry: ToolEntry): string {
    if (this.scope.has(entry.name)) return groupInactive(entry);
    return `Tool '${entry.name}' is not available to skill '${this.skill}': list it in the skill's tools to call it from the skill.`;
  }

  closedReason(): string | undefined {
    return this.state.closedReason();
  }

  enabledNames(): string[] {
    const names: string[] = [];
    for (const entry of this.registry.entries()) if (this.isEnabled(entry)) names.push(entry.name);
    return names;
  }
}

/** @internal What a closed (or expired) session answers to a toggle, a skill change or a call. */
export function closedError(sessionId: string | undefined): ToolkitError {
  return new ToolkitError(
    'SESSION_CLOSED',
    `Session '${sessionId ?? ''}' is closed (it expired or was closed); get a new one with toolkit.session(id).`,
  );
}
