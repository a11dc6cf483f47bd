import { Container, injectable } from 'inversify';
import { describeThrown, ToolkitError } from '../errors/toolkit-error';

/** A class the container can build (what `@ToolService` classes and context classes are). */
type Newable = abstract new (...args: never[]) => unknown;

/** Inversify's service identifier type, as its own API spells it. */
type ServiceId = Parameters<Container['isBound']>[0];

/**
 * The part of an Inversify container a toolkit uses: an Inversify `Container` is one, and so is
 * what `toolwrightModule()` builds from the container that loads it (Inversify 8 does not hand a
 * module its container).
 *
 * @example
 * const container: ToolkitContainer = new Container();
 * container.get(WeatherService);
 */
export interface ToolkitContainer {
  /** Whether anything is bound to an identifier. */
  readonly isBound: Container['isBound'];
  /** What is bound to an identifier (throws when nothing is). */
  readonly get: Container['get'];
  /** Starts a binding. */
  readonly bind: Container['bind'];
  /** Drops a binding. */
  readonly unbind: Container['unbind'];
}

/**
 * Where Inversify 8 flags a class as `@injectable()` (own metadata of the class): its decorator
 * throws "Cannot apply @injectable decorator multiple times" when the flag is already set.
 * The flag only guards against that repetition; resolving a class reads its class metadata.
 */
const INJECTABLE_FLAG = '@inversifyjs/core/classIsInjectableFlagReflectKey';

/**
 * @internal Makes a class injectable by Inversify (constructor injection), in whichever order
 * `@injectable()` and `@ToolService()` are written: a class already flagged `@injectable()` stays
 * as it is, and a class marked here is left unflagged so that an `@injectable()` applied
 * afterwards (written above `@ToolService()`) still succeeds.
 */
export function markInjectable(target: object): void {
  if (Reflect.getOwnMetadata(INJECTABLE_FLAG, target) !== undefined) return;
  injectable()(target as Parameters<ReturnType<typeof injectable>>[0]);
  Reflect.deleteMetadata(INJECTABLE_FLAG, target);
}

/** @internal The container a toolkit uses when it is given none. */
export function newContainer(): ToolkitContainer {
  return new Container();
}

/**
 * @internal The service instance of `ctor` from the container. A class the user did not bind is
 * bound as a singleton first and listed in `bound` (so a failed registration can undo it).
 *
 * @throws ToolkitError `SERVICE_RESOLUTION_FAILED` naming the class, the cause and the fix.
 */
export function resolveService(container: ToolkitContainer, ctor: Newable & { readonly name: string }, bound: Newable[]): object {
  const id = ctor as ServiceId;
  try {
    if (!container.isBound(id)) {
      container.bind(id).toSelf().inSingletonScope();
      bound.push(ctor);
    }
    return container.get(id) as object;
  } catch (e) {
    throw new ToolkitError(
      'SERVICE_RESOLUTION_FAILED',
      `${ctor.name} could not be resolved from the Inversify container because ${describeThrown(e)}\n` +
        '  Bind its constructor dependencies in the container you pass to new Toolkit({ container }), or register an instance.',
      { cause: e },
    );
  }
}

/** @internal Drops a binding `resolveService` made; a binding Inversify refuses to drop stays (resolving it again still works). */
export function releaseService(container: ToolkitContainer, ctor: Newable): void {
  try {
    container.unbind(ctor as ServiceId);
  } catch {
    // the binding is the toolkit's own: keeping it is harmless
  }
}

/** @internal What the container holds for `token` at call time (a `fromContainer` preset); throws what Inversify throws. */
export function getBound(container: ToolkitContainer, token: unknown): unknown {
  return container.get(token as ServiceId);
}

/** @internal What the container holds for `key`, or `undefined` when nothing is bound to it (the end of the context chain). */
export function lookupBound<T>(container: ToolkitContainer, key: unknown): T | undefined {
  const id = key as ServiceId;
  return container.isBound(id) ? (container.get(id) as T) : undefined;
}
