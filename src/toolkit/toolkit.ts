import type { ToolkitContainer } from '../di/services';
import type { Observable } from 'rxjs';
import type { AgentTool } from '../model/agent-tool';
import type { ToolExecutionContext } from '../model/execution-context';
import type { ToolEvent } from '../executor/event-types';
import type { ToolHook } from '../executor/hook-types';
import type { EquipToolGroupsOptions } from './meta-tools';
import { ToolRegistration, type RegisterOptions, type ToolTarget } from './registration';
import type { ToolkitRuntime } from './runtime';
import type { SessionOptions, ToolkitSession } from './sessions/toolkit-session';
import type { SkillDefinition } from './skills/skill-definition';
import { ToolView } from './tool-view';
import type { ToolkitExtension } from './extension';
import { ToolkitError } from '../errors';
import type { ToolkitOptions } from './toolkit-options';

export type { ToolkitOptions } from './toolkit-options';

let runtime: typeof import('./runtime') | undefined;

/**
 * The toolkit's working parts (executor, registry, groups, skills, sessions), loaded by the first
 * `new Toolkit()`: `require('toolwright')` does not pay for them (a light cold start).
 */
function loadRuntime(): typeof import('./runtime') {
  return (runtime ??= require('./runtime') as typeof import('./runtime'));
}

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
  /** @internal */
  private readonly runtime: ToolkitRuntime;
  /** The Inversify container services are resolved from. */
  readonly container: ToolkitContainer;

  constructor(options: ToolkitOptions = {}) {
    const runtime = new (loadRuntime().ToolkitRuntime)(options);
    super(runtime.viewParts, runtime.state);
    this.runtime = runtime;
    runtime.attach(this);
    this.container = runtime.container;
    const equip = options.equipToolGroups;
    if (equip) this.enableEquipToolGroups(equip === true ? {} : equip);
  }

  /**
   * Every call event, progress report and change, as a typed discriminated union. A subscriber
   * that throws cannot crash the process or fail a call: its failure comes back as a
   * `callback_failed` event.
   */
  get events$(): Observable<ToolEvent> {
    return this.runtime.events$;
  }

  /**
   * Creates (or updates) a tool group. Groups named by `@ToolService`/`@Tool`/`registration().group()`
   * that were never created are created active.
   */
  createToolGroup(name: string, description = '', active = true): void {
    this.runtime.createGroup(name, description, active);
  }

  /**
   * Registers a tool service class (resolved from the container), an instance of one, or an
   * `AgentTool` object.
   *
   * @returns the registered tools.
   * @throws ToolkitError `DUPLICATE_TOOL`, `MISSING_NAME`, `MISSING_DESCRIPTION`, `INVALID_NAME`,
   *   `UNRESOLVABLE_PARAMETER`, `DECORATOR_METADATA_MISSING`, `REFLECT_METADATA_MISSING`,
   *   `INVALID_DEFINITION` (among others: a resource's or prompt's `preset: true` parameter nothing
   *   binds, see `presetParameters`; a tool's gets a `TOOLWRIGHT_PRESET_UNBOUND` process warning
   *   unless a route to workers takes it), `MANIFEST_MISMATCH`, `SERVICE_RESOLUTION_FAILED`;
   *   `INVALID_CONTEXT` for a tool a route to workers takes whose injected context cannot travel.
   */
  registerTool(target: ToolTarget, options: RegisterOptions = {}): AgentTool[] {
    return this.runtime.register([target], options);
  }

  /** Starts a fluent registration (`.tool(...).group(...).presetParameters(...).apply()`). */
  registration(): ToolRegistration {
    return new ToolRegistration((targets, options) => this.runtime.register(targets, options));
  }

  /** Removes a tool by name; returns whether it existed. */
  unregisterTool(name: string): boolean {
    return this.runtime.unregister(name);
  }

  /** A registered tool by name (enabled or not). */
  getTool(name: string): AgentTool | undefined {
    return this.runtime.registry.get(name)?.tool;
  }

  /** Every registered tool, enabled or not. */
  getAllTools(): AgentTool[] {
    return [...this.runtime.registry.entries()].map((e) => e.tool);
  }

  /** Adds a hook to the pipeline around every call (hooks run in the order added). */
  use(hook: ToolHook): this {
    this.runtime.hooks.push(hook);
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
    this.runtime.registerSkill(skill);
  }

  /**
   * The registered skills, in registration order.
   *
   * @example
   * toolkit.getSkills().map((s) => s.name); // ['research', 'deploy']
   */
  getSkills(): SkillDefinition[] {
    return this.runtime.skills.list();
  }

  /**
   * A registered skill by name.
   *
   * @example
   * toolkit.getSkill('research')?.instructions;
   */
  getSkill(name: string): SkillDefinition | undefined {
    return this.runtime.skills.get(name)?.skill;
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
    this.runtime.meta.enableEquip(options);
    this.runtime.registryChanged();
  }

  /**
   * Withdraws `equip_tool_groups`; returns whether it was offered. Groups it switched stay as they are.
   *
   * @example
   * toolkit.disableEquipToolGroups();
   */
  disableEquipToolGroups(): boolean {
    const removed = this.runtime.meta.disableEquip();
    if (removed) this.runtime.registryChanged();
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
    return this.runtime.sessions.session(id, options);
  }

  /**
   * The ids of the open sessions (expired ones are closed first).
   *
   * @example
   * toolkit.getSessionIds().length;
   */
  getSessionIds(): string[] {
    return this.runtime.sessions.ids();
  }

  /** The number of open sessions (expired ones may still be counted until the next lookup). */
  get sessionCount(): number {
    return this.runtime.sessions.size;
  }
}

/**
 * @internal The {@link ToolkitExtension} of `toolkit`: the one way a subpath package reaches past
 * the public API. Throws `INVALID_OPTIONS` for anything but a `Toolkit` (a plain object, or a
 * session, cannot route tools).
 */
export function extensionOf(toolkit: Toolkit): ToolkitExtension {
  // a caller without types may pass anything: what it holds is checked, not assumed
  const runtime: ToolkitExtension | undefined = toolkit['runtime'];
  if (typeof runtime?.runnerFor !== 'function') {
    throw new ToolkitError('INVALID_OPTIONS', 'Expected a Toolkit (new Toolkit(…)); a session or another object cannot route tools.');
  }
  return runtime;
}

/**
 * @internal Gives `toolkit` a source of the context of the work in progress (the Nest module: the
 * caller of the request being handled), read by every call and list: under the agent-level and
 * call-level contexts, over the toolkit's own `context`. A call resumed later keeps the context
 * it was made with.
 */
export function setAmbientContext(toolkit: Toolkit, source: () => ToolExecutionContext | undefined): void {
  extensionOf(toolkit).ambient = source;
}
