import type { ContainerModule } from 'inversify';
import { singletonModule } from '../di/container-module';
import { ToolkitError } from '../errors';
import type { PresetMap } from '../executor/presets';
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

function checkOptions(options: ToolwrightModuleOptions): void {
  const services: unknown = options.services ?? [];
  const bad = Array.isArray(services) ? services.findIndex((target) => (typeof target !== 'function' && typeof target !== 'object') || target === null) : -1;
  if (!Array.isArray(services) || bad >= 0) {
    throw new ToolkitError('INVALID_OPTIONS', `toolwrightModule: services${bad >= 0 ? `[${bad}]` : ''} must be a list of tool service classes, instances or AgentTool objects.`);
  }
  for (const [i, group] of (options.groups ?? []).entries()) {
    if (typeof group?.name !== 'string' || group.name === '') {
      throw new ToolkitError('INVALID_OPTIONS', `toolwrightModule: groups[${i}] needs a name: { name: 'admin', description: 'Admin tools', active: false }.`);
    }
  }
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
  checkOptions(options);
  const { services = [], groups = [], presets, ...toolkitOptions } = options;
  return singletonModule(Toolkit, services.filter(isClass), (container) => {
    const toolkit = new Toolkit({ ...toolkitOptions, container });
    for (const group of groups) toolkit.createToolGroup(group.name, group.description ?? '', group.active ?? true);
    if (services.length > 0 || presets !== undefined) {
      const registration = toolkit.registration();
      for (const target of services) registration.tool(target);
      if (presets !== undefined) registration.presetParameters(presets);
      registration.apply();
    }
    return toolkit;
  });
}
