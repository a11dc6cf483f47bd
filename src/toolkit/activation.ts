import { BehaviorSubject, type Observable } from 'rxjs';
import type { AgentTool } from '../common/agent-tool';
import type { ToolSchema } from '../common/tool-types';
import type { AvailabilityView } from '../executor/call-executor';
import type { Registry, ToolEntry } from './registry';

/** @internal A group as the toolkit knows it. */
export interface GroupRecord {
  readonly name: string;
  description: string;
  /** Whether new sessions start with it on. */
  activeByDefault: boolean;
}

/** @internal The skill scope of a view: only these tools (plus global ones) are enabled. */
export interface SkillScope {
  readonly name: string;
  readonly tools: ReadonlySet<string>;
}

/**
 * @internal Which tools one view (the toolkit, or one session) has enabled: its active groups
 * and skill, with the enabled list and provider definitions cached until the registry or the
 * state changes.
 */
export class ActivationState implements AvailabilityView {
  private cacheKey = -1;
  private enabled: ToolEntry[] = [];
  private enabledSet = new Set<ToolEntry>();
  private tools?: AgentTool[];
  private schemas?: ToolSchema[];
  private names?: string[];
  private readonly defsCache = new Map<string, unknown>();
  private subject?: BehaviorSubject<AgentTool[]>;
  private version = 0;

  constructor(
    private readonly registry: Registry,
    private readonly groups: ReadonlyMap<string, GroupRecord>,
    readonly activeGroups: Set<string>,
    public skill: SkillScope | undefined,
    readonly sessionId?: string,
  ) {}

  private refresh(): void {
    const key = this.registry.version * 1_000_003 + this.version;
    if (key === this.cacheKey) return;
    this.cacheKey = key;
    const enabled: ToolEntry[] = [];
    for (const entry of this.registry.entries()) if (this.compute(entry)) enabled.push(entry);
    this.enabled = enabled;
    this.enabledSet = new Set(enabled);
    this.tools = undefined;
    this.schemas = undefined;
    this.names = undefined;
    this.defsCache.clear();
  }

  private compute(entry: ToolEntry): boolean {
    if (entry.source === 'global') return true;
    if (this.skill) return this.skill.tools.has(entry.name);
    return entry.group === undefined || this.activeGroups.has(entry.group);
  }

  isEnabled(entry: ToolEntry): boolean {
    this.refresh();
    return this.enabledSet.has(entry);
  }

  whyDisabled(entry: ToolEntry): string {
    if (this.skill && !this.skill.tools.has(entry.name)) {
      return `Tool '${entry.name}' is disabled: skill '${this.skill.name}' is active and does not include it.`;
    }
    return `Tool '${entry.name}' is disabled: its group '${entry.group ?? ''}' is not active.`;
  }

  enabledNames(): string[] {
    this.refresh();
    return (this.names ??= this.enabled.map((e) => e.name));
  }

  activeTools(): AgentTool[] {
    this.refresh();
    return (this.tools ??= this.enabled.map((e) => e.tool));
  }

  toolSchemas(): ToolSchema[] {
    this.refresh();
    return (this.schemas ??= this.enabled.map((e) => e.definition));
  }

  /** Cached provider definitions, recomputed only after a change. */
  cachedDefs<T>(key: string, make: () => T): T {
    this.refresh();
    let defs = this.defsCache.get(key) as T | undefined;
    if (defs === undefined) this.defsCache.set(key, (defs = make()));
    return defs;
  }

  get activeTools$(): Observable<AgentTool[]> {
    return (this.subject ??= new BehaviorSubject(this.activeTools())).asObservable();
  }

  /** True when someone watches this view's tool list. */
  get watched(): boolean {
    return this.subject?.observed ?? false;
  }

  /** Marks the state changed and tells subscribers. Returns the new enabled names when they changed. */
  changed(): void {
    this.version++;
    if (this.subject) this.subject.next(this.activeTools());
  }

  /** Groups known to the toolkit with this view's on/off state. */
  groupStates(): { name: string; description: string; active: boolean }[] {
    return [...this.groups.values()].map((g) => ({ name: g.name, description: g.description, active: this.activeGroups.has(g.name) }));
  }

  complete(): void {
    this.subject?.complete();
  }
}
