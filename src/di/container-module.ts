import { ContainerModule, type ServiceIdentifier } from 'inversify';
import { ToolkitError } from '../errors';
import type { ToolkitContainer } from './services';

/** A class a module binds to itself. */
type Bindable = abstract new (...args: never[]) => unknown;

/**
 * @internal A `ContainerModule` that binds each of `classes` to itself as a singleton (unless the
 * container already binds it) and `id` as a singleton made by `make` on first resolution. `make`
 * gets the loading container as a {@link ToolkitContainer}: Inversify 8 gives a module only its
 * binding functions and a resolution only its context, so the two are put together here — later
 * lookups (services registered afterwards, `fromContainer` presets, the context chain) reach the
 * same container, and bindings made through it are the module's (unloading the module drops them).
 *
 * @throws ToolkitError `INVALID_OPTIONS` at `container.load()` when the container already binds `id`.
 */
export function singletonModule<T>(id: ServiceIdentifier<T>, classes: readonly Bindable[], make: (container: ToolkitContainer) => T): ContainerModule {
  return new ContainerModule((options) => {
    if (options.isBound(id)) {
      const name = typeof id === 'function' ? id.name : String(id);
      throw new ToolkitError('INVALID_OPTIONS', `The container already binds ${name}: load this module into a container without one, or unbind it first.`);
    }
    for (const ctor of classes) {
      const service = ctor as ServiceIdentifier;
      if (!options.isBound(service)) options.bind(service).toSelf().inSingletonScope();
    }
    options
      .bind(id)
      .toDynamicValue((context) => make({ isBound: options.isBound, bind: options.bind, unbind: options.unbindAsync, get: context.get.bind(context) as ToolkitContainer['get'] }))
      .inSingletonScope();
  });
}
