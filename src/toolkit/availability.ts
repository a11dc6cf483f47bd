import type { ToolSchema } from '../model/tool-types';
import type { CallbackFailureReporter } from '../utils/guarded-observable';
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
export interface Computed {
  readonly registryVersion: number;
  readonly enabled: ReadonlySet<ToolEntry>;
  readonly entries: readonly ToolEntry[];
  readonly availability: readonly ToolAvailability[];
  names?: readonly string[];
  schemas?: readonly ToolSchema[];
  readonly defs: Map<string, unknown>;
}

/** The empty group set (shared). */
export const EMPTY_GROUPS: ReadonlySet<string> = new Set<string>();
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
