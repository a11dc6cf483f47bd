import type { ContainerModule } from 'inversify';
import { singletonModule } from '../di/container-module';
import { ToolkitError } from '../errors';
import type { PresetMap } from '../executor/presets/presets';
import type { Constructor } from '../metadata/records';
import type { ToolTarget } from './registration';
import { Toolkit } from './toolkit';
import type { ToolkitOptions } from './toolkit-options';

/**
 * A tool group to create, as `toolkit.createToolGroup(name, description, active)` does.
 *
 * @example
 * const admin: ToolGroupDefinition = { name: 'admin', description: 'Admin tools', active: false };
 */
export interface ToolGroupDefinition {
  /** The group's name (what `@Tool({ group })`, `@ToolService({ group })` and sessions name). */
  readonly name: string;
  /** What the group's tools are for, shown to the model by `renderPrompt()` and `equip_tool_groups`. */
  readonly description?: string | undefined;
  /** Whether the group starts switched on (default `true`). */
  readonly active?: boolean | undefined;
}

/**
 * Options of {@link toolwrightModule}: the `Toolkit` constructor options (the container is the
 * one that loads the module), the services to register, groups and presets.
 */
export interface ToolwrightModuleOptions extends Omit<ToolkitOptions, 'container'> {
  /**
   * The tool services to register: classes (bound to themselves as singletons unless the
   * container already binds them, so constructor injection works), instances of tool services,
   * or `AgentTool` objects. Registered together: a definition error registers none of them.
   */
  readonly services?: readonly ToolTarget[] | undefined;
  /** Groups created before the services are registered. */
  readonly groups?: readonly ToolGroupDefinition[] | undefined;
  /** Hidden parameters by tool name, then parameter name (as `presetParameters`); every tool named must be among the services' tools. */
  readonly presets?: PresetMap | undefined;
}

const isClass = (target: ToolTarget): target is Constructor => typeof target === 'function';

/**
 * @internal Checks the options of a toolwright module (`toolwrightModule`, or `ToolwrightModule.forRoot`
 * of `toolwright/nestjs`, named by `caller`) before anything is made from them.
 *
 * @throws ToolkitError `INVALID_OPTIONS` naming the option and the shape it takes.
 */
export function checkModuleOptions(options: ToolwrightModuleOptions, caller: string): void {
  if (typeof options !== 'object' || options === null) throw new ToolkitError('INVALID_OPTIONS', `${caller}: options must be an object ({ groups, presets, … }).`);
  const services: unknown = options.services ?? [];
  const bad = Array.isArray(services) ? services.findIndex((target) => (typeof target !== 'function' && typeof target !== 'object') || target === null) : -1;
  if (!Array.isArray(services) || bad >= 0) {
    throw new ToolkitError('INVALID_OPTIONS', `${caller}: services${bad >= 0 ? `[${bad}]` : ''} must be a list of tool service classes, instances or AgentTool objects.`);
  }
  const groups: unknown = options.groups ?? [];
  if (!Array.isArray(groups)) throw new ToolkitError('INVALID_OPTIONS', `${caller}: groups must be a list: [{ name: 'admin', description: 'Admin tools', active: false }].`);
  for (const [i, group] of (groups as (ToolGroupDefinition | undefined)[]).entries()) {
    if (typeof group?.name !== 'string' || group.name === '') {
      throw new ToolkitError('INVALID_OPTIONS', `${caller}: groups[${i}] needs a name: { name: 'admin', description: 'Admin tools', active: false }.`);
    }
  }
  const presets: unknown = options.presets;
  if (presets !== undefined && (typeof presets !== 'object' || presets === null || Array.isArray(presets))) {
    throw new ToolkitError('INVALID_OPTIONS', `${caller}: presets must map tool names to their hidden parameters: { send_mail: { apiKey: … } }.`);
  }
}

/**
 * @internal The toolkit of a toolwright module: made from the `Toolkit` options of `options`, with
 * its `groups` created.
 */
export function createModuleToolkit(options: ToolwrightModuleOptions, container?: ToolkitOptions['container']): Toolkit {
  const { services: _services, groups = [], presets: _presets, ...toolkitOptions } = options;
  const toolkit = new Toolkit(container === undefined ? toolkitOptions : { ...toolkitOptions, container });
  for (const group of groups) toolkit.createToolGroup(group.name, group.description ?? '', group.active ?? true);
  return toolkit;
}

/**
 * @internal Registers a module's services with its presets in one registration: presets may name
 * the tool of any of them (a registration refuses presets naming tools outside it), and a
 * definition error registers none of them.
 */
export function registerModuleServices(toolkit: Toolkit, services: readonly ToolTarget[], presets: PresetMap | undefined): void {
  if (services.length === 0 && presets === undefined) return;
  const registration = toolkit.registration();
  for (const target of services) registration.tool(target);
  if (presets !== undefined) registration.presetParameters(presets);
  registration.apply();
}

/**
 * An Inversify `ContainerModule` that binds `Toolkit` as a singleton and registers the `services`
 * it is given: `container.load(toolwrightModule({ services: [WeatherService] }))`, then
 * `container.get(Toolkit)` wherever a toolkit is injected. The toolkit is made on its first
 * resolution, from the container that loaded the module: services (and their constructor
 * dependencies), `fromContainer` presets and context lookups resolve there. Unloading the module
 * drops its bindings.
 *
 * @example
 * const container = new Container();
 * container.bind(WeatherApi).toSelf();
 * await container.load(toolwrightModule({ services: [WeatherService], groups: [{ name: 'admin', active: false }] }));
 * const toolkit = container.get(Toolkit);
 *
 * @throws ToolkitError `INVALID_OPTIONS` for malformed options (at once) or a container that already
 * binds `Toolkit` (at `load`); on the first `get(Toolkit)`, the errors of `registerTool`
 * (definition errors, `SERVICE_RESOLUTION_FAILED`, presets naming a tool no service has).
 */
export function toolwrightModule(options: ToolwrightModuleOptions = {}): ContainerModule {
  checkModuleOptions(options, 'toolwrightModule');
  const services = options.services ?? [];
  return singletonModule(Toolkit, services.filter(isClass), (container) => {
    const toolkit = createModuleToolkit(options, container);
    registerModuleServices(toolkit, services, options.presets);
    return toolkit;
  });
}
