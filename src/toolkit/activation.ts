import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { AgentTool } from '../common/agent-tool';
import type { ToolSchema } from '../common/tool-types';
import { GuardedObservable, type CallbackFailureReporter } from '../common/guarded-observable';
import type { AvailabilityView } from '../executor/call-executor';
import type { Registry, ToolEntry, ToolSource } from './registry';

/** @internal A group as the toolkit knows it. */
export interface GroupRecord {
  readonly name: string;
  description: string;
  /** Whether new sessions start with it on. */
  activeByDefault: boolean;
}

/**
 * Why one tool is enabled in a view: the result of combining the toolkit's tools with the
 * view's active groups and skill.
 *
 * - `global`: one of the toolkit's own meta tools (`list_skills`, `invoke_skill`,
 *   `equip_tool_groups`); enabled in every view, also while a skill is active. No `owner`.
 * - `component`: a registered tool enabled by its group (`owner` is the group) or always on
 *   because it has no group (no `owner`).
 * - `skill`: enabled because the active skill lists it (`owner` is the skill).
 *
 * @example
 * session.getAvailability();
 * // [{ name: 'web_search', source: 'skill', owner: 'research' },
 * //  { name: 'delete_user', source: 'component', owner: 'admin' },
 * //  { name: 'invoke_skill', source: 'global' }]
 */
export interface ToolAvailability {
  /** The tool's name. */
  readonly name: string;
  /** What enables it. */
  readonly source: ToolSource;
  /** The group (`component`) or skill (`skill`) that enables it. */
  readonly owner?: string;
}

/**
 * The skill layer of a view: while a skill is active, its tools plus the groups
 * switched on during the skill are enabled, and the base groups underneath wait untouched.
 */
export interface SkillLayer {
  readonly name: string;
  /** The tools the skill selects (its `tools`, `requiredTools` and step tools), among those the view permits. */
  readonly scope: ReadonlySet<string>;
  /** The groups the skill's definition grants beyond the view's (`grantGroups`). */
  readonly grants: ReadonlySet<string>;
  /** Groups switched on while the skill is active; dropped with the layer. */
  readonly groups: ReadonlySet<string>;
  /** Which activation made the layer (a failed `onActivate` undoes only its own). */
  readonly activation: number;
}

/** @internal The availability of one (registry version, groups, skill) combination, shared by every view in it. */
interface Computed {
  readonly registryVersion: number;
  readonly enabled: ReadonlySet<ToolEntry>;
  readonly entries: readonly ToolEntry[];
  readonly availability: readonly ToolAvailability[];
  names?: readonly string[];
  schemas?: readonly ToolSchema[];
  readonly defs: Map<string, unknown>;
}

/** The empty group set (shared). */
const EMPTY_GROUPS: ReadonlySet<string> = new Set<string>();
const groupKeys = new WeakMap<ReadonlySet<string>, string>();

/** A canonical text key of a group set, memoised per (immutable) set. */
function keyOfGroups(groups: ReadonlySet<string>): string {
  let key = groupKeys.get(groups);
  if (key === undefined) groupKeys.set(groups, (key = JSON.stringify([...groups].sort())));
  return key;
}

/** Most group sets whose transitions one toolkit remembers (beyond it, toggles still work, unshared). */
const TRANSITION_LIMIT = 4096;

/**
 * @internal Computes what a (groups, skill) combination enables and shares the result (the
 * enabled set, schemas, provider definitions) between every view in that combination, so a
 * thousand sessions with the same toggles cost one computation and one copy. Forgets everything
 * when the registry changes; keeps at most `limit` combinations (a view keeps its own reference,
 * so an evicted combination only stops being shared).
 */
export class AvailabilityCache {
  private registryVersion = -1;
  private readonly byKey = new Map<string, Computed>();
  /** `set → ('+name' | '-name') → set`: views making the same toggles share one immutable set. */
  private readonly transitions = new WeakMap<ReadonlySet<string>, Map<string, ReadonlySet<string>>>();
  private remembered = 0;

  constructor(
    private readonly registry: Registry,
    /** Where the views' subscribers' failures go (see `GuardedObservable`). */
    readonly report: CallbackFailureReporter,
    private readonly limit = 512,
  ) {}

  /**
   * `groups` with `name` switched on or off, as an immutable set (`groups` itself when nothing
   * changes). The same toggle of the same set gives the same set, so a thousand sessions that
   * switched on the same group hold one set, and the availability key is computed once.
   */
  toggled(groups: ReadonlySet<string>, name: string, on: boolean): ReadonlySet<string> {
    if (groups.has(name) === on) return groups;
    const step = on ? `+${name}` : `-${name}`;
    let memo = this.transitions.get(groups);
    const known = memo?.get(step);
    if (known !== undefined) return known;
    const next = new Set(groups);
    if (on) next.add(name);
    else next.delete(name);
    if (this.remembered < TRANSITION_LIMIT) {
      this.remembered++;
      if (memo === undefined) this.transitions.set(groups, (memo = new Map()));
      memo.set(step, next);
      this.transitions.set(next, new Map([[on ? `-${name}` : `+${name}`, groups]]));
    }
    return next;
  }

  get(groups: ReadonlySet<string>, skill: SkillLayer | undefined): Computed {
    if (this.registryVersion !== this.registry.version) {
      this.byKey.clear();
      this.registryVersion = this.registry.version;
    }
    // with a skill the base groups still decide what its scope may reach: they are part of the key
    const key = skill === undefined ? `g${keyOfGroups(groups)}` : `s${JSON.stringify(skill.name)}${keyOfGroups(groups)}${keyOfGroups(skill.groups)}`;
    let computed = this.byKey.get(key);
    if (computed === undefined) {
      computed = this.compute(groups, skill);
      if (this.byKey.size >= this.limit) this.byKey.delete(this.byKey.keys().next().value!);
      this.byKey.set(key, computed);
    }
    return computed;
  }

  private compute(groups: ReadonlySet<string>, skill: SkillLayer | undefined): Computed {
    const enabled = new Set<ToolEntry>();
    const entries: ToolEntry[] = [];
    const availability: ToolAvailability[] = [];
    for (const entry of this.registry.entries()) {
      const found = availabilityOf(entry, groups, skill);
      if (found === undefined) continue;
      enabled.add(entry);
      entries.push(entry);
      availability.push(found);
    }
    return {
      registryVersion: this.registry.version,
      enabled,
      entries: Object.freeze(entries),
      availability: Object.freeze(availability),
      defs: new Map(),
    };
  }
}

/**
 * True when a view with these base groups and skill layer permits tools of `group`, with
 * `grants` (an executable skill's own `grantGroups`) on top. Groups are the permission boundary:
 * a skill selects among the permitted tools and never widens them beyond its explicit grants.
 */
export function permitsGroup(
  group: string | undefined,
  base: ReadonlySet<string>,
  skill: SkillLayer | undefined,
  grants: ReadonlySet<string> = EMPTY_GROUPS,
): boolean {
  if (group === undefined || base.has(group) || grants.has(group)) return true;
  return skill !== undefined && (skill.groups.has(group) || skill.grants.has(group));
}

/** The one rule that says whether (and why) a tool is enabled. */
function availabilityOf(entry: ToolEntry, groups: ReadonlySet<string>, skill: SkillLayer | undefined): ToolAvailability | undefined {
  const name = entry.name;
  if (entry.source === 'global') return Object.freeze({ name, source: 'global' });
  const group = entry.group;
  if (skill !== undefined) {
    if (skill.scope.has(name) && permitsGroup(group, groups, skill)) return Object.freeze({ name, source: 'skill', owner: skill.name });
    if (group !== undefined && skill.groups.has(group)) return Object.freeze({ name, source: 'component', owner: group });
    return undefined;
  }
  if (group === undefined) return Object.freeze({ name, source: 'component' });
  return groups.has(group) ? Object.freeze({ name, source: 'component', owner: group }) : undefined;
}

/** @internal The answer for a tool whose group the caller's view does not permit. */
export function groupInactive(entry: ToolEntry): string {
  return `Tool '${entry.name}' is disabled: its group '${entry.group ?? ''}' is not active.`;
}

/** @internal The Observables of a view, made on first subscription. */
interface Reactive {
  readonly changes: BehaviorSubject<number>;
  /** `changes` read-only (piping a Subject itself would make a Subject again). */
  readonly source: Observable<number>;
  tools$?: Observable<AgentTool[]>;
  availability$?: Observable<readonly ToolAvailability[]>;
  skill$?: Observable<string | undefined>;
}

/**
 * @internal Which tools one view (the toolkit, or one session) has enabled: its base groups, its
 * skill layer, and the computed availability (shared through the {@link AvailabilityCache}).
 * Deliberately small: a session that never subscribed or called holds a few references.
 */
export class ActivationState implements AvailabilityView {
  /** The base groups (immutable; replaced on change, shared until then). */
  private base: ReadonlySet<string>;
  private layer: SkillLayer | undefined = undefined;
  private computed: Computed | undefined = undefined;
  private stale = true;
  private tools: AgentTool[] | undefined = undefined;
  private reactive: Reactive | undefined = undefined;
  /** Set once the view is closed (a session that expired or was closed). */
  closed = false;
  /** The skill hooks of this view run one after the other, in the order of the changes. */
  hookChain: Promise<void> | undefined = undefined;

  constructor(
    private readonly registry: Registry,
    private readonly cache: AvailabilityCache,
    private readonly groupRecords: ReadonlyMap<string, GroupRecord>,
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

  whyDisabled(entry: ToolEntry): string {
    const layer = this.layer;
    if (layer !== undefined && !layer.scope.has(entry.name)) {
      return `Tool '${entry.name}' is disabled: skill '${layer.name}' is active and does not include it.`;
    }
    return groupInactive(entry);
  }

  /**
   * True when this view permits tools of `group` to an executable skill's run, with `grants`
   * (the run's own `grantGroups`): the active scoping skill's grants cover its own scope only.
   */
  permits(group: string | undefined, grants: ReadonlySet<string>): boolean {
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

  /** Marks the state changed and tells subscribers (synchronously). */
  changed(): void {
    this.stale = true;
    this.tools = undefined;
    const rx = this.reactive;
    if (rx !== undefined) rx.changes.next(rx.changes.value + 1);
  }

  /** Closes the view: its Observables complete. */
  complete(): void {
    this.closed = true;
    this.reactive?.changes.complete();
  }
}

export { EMPTY_GROUPS };
