import type { DiscoveryService } from '@nestjs/core';
import { ToolkitError } from '../errors';
import { hasToolMethods, mergedRecords } from '../metadata/records';
import { loadNestCommon } from './nest-peer';

/**
 * What discovery reads of one of Nest's instance wrappers (a provider or a controller of a
 * module): the fields Nest 11 and 12 both have.
 */
interface Wrapper {
  readonly name: unknown;
  readonly metatype: unknown;
  readonly instance: unknown;
  readonly isAlias?: boolean | undefined;
  readonly isTransient: boolean;
  readonly isFactory: boolean;
  readonly scope?: number | undefined;
  readonly host?: { readonly name: string } | undefined;
  isDependencyTreeStatic(): boolean;
  getCtorMetadata?(): readonly Wrapper[] | undefined;
  getPropertiesMetadata?(): readonly { readonly wrapper: Wrapper }[] | undefined;
}

/** The most providers one start-up error lists (the count of the rest follows). */
const MAX_LISTED = 10;

/** Per-request data reaches a tool as call context, not through the provider's scope. */
const FIX =
  '  Make it a singleton (the default scope): what differs per request (the user, the tenant) reaches a tool as call context, ' +
  'toolkit.callTool(call, { context: ToolExecutionContext.of(user) }); or move the @Tool methods to a singleton provider.';

const className = (ctor: unknown): string => (typeof ctor === 'function' && ctor.name !== '' ? ctor.name : 'an anonymous class');

function toolMethods(prototype: object): string {
  return [...mergedRecords(prototype).methods.keys()].join(', ');
}

/** The dependency path (`A → B → C`) from `wrapper` to a request-scoped provider, when Nest recorded one. */
function requestScopedPath(wrapper: Wrapper, request: number, seen = new Set<Wrapper>()): string[] | undefined {
  if (seen.has(wrapper)) return undefined;
  seen.add(wrapper);
  const dependencies = [...(wrapper.getCtorMetadata?.() ?? []), ...(wrapper.getPropertiesMetadata?.() ?? []).map((p) => p.wrapper)];
  for (const dependency of dependencies) {
    if (dependency === undefined || dependency === null) continue;
    const name = typeof dependency.name === 'string' ? dependency.name : className(dependency.metatype);
    if (dependency.scope === request) return [name];
    const path = requestScopedPath(dependency, request, seen);
    if (path !== undefined) return [name, ...path];
  }
  return undefined;
}

/** Why a provider has no single instance, for the start-up error. */
function whyNotSingleton(wrapper: Wrapper): string {
  const { Scope } = loadNestCommon();
  if (wrapper.isTransient) return 'transient (Scope.TRANSIENT): Nest makes an instance for each class that injects it';
  if (wrapper.scope === Scope.REQUEST) return 'request-scoped (Scope.REQUEST): Nest makes an instance per request';
  const path = requestScopedPath(wrapper, Scope.REQUEST);
  const through = path !== undefined ? `it depends on ${path.join(' → ')}, which is request-scoped` : 'one of its dependencies is request-scoped';
  return `request-scoped because ${through} (Nest makes an instance per request)`;
}

const where = (wrapper: Wrapper): string => (wrapper.host !== undefined ? ` (in ${wrapper.host.name})` : '');

/**
 * @internal The instances whose `@Tool` methods the application offers: every singleton provider
 * and controller of every module whose class (or an ancestor) has `@Tool` methods, as Nest made
 * it (with Nest's constructor injection), each once. Aliases (`useExisting`) are the instance
 * they name. Request-scoped and transient classes with `@Tool` methods have no instance at start:
 * they fail, as does a class with `@Tool` methods provided by several modules (one instance each).
 * A request-scoped or transient factory provider cannot be seen into before it runs: what it
 * returns is never registered.
 *
 * @throws ToolkitError `INVALID_DEFINITION` naming each such provider, why, and the fix.
 */
export function discoverToolServices(discovery: DiscoveryService): object[] {
  const wrappers = [...discovery.getProviders(), ...discovery.getControllers()] as unknown as readonly Wrapper[];
  const problems: string[] = [];
  let scoped = false;
  const instances = new Map<object, Wrapper>();
  const byClass = new Map<unknown, Wrapper[]>();
  for (const wrapper of wrappers) {
    if (wrapper.isAlias === true) continue;
    if (wrapper.isTransient || !wrapper.isDependencyTreeStatic()) {
      const ctor = wrapper.metatype;
      if (!wrapper.isFactory && typeof ctor === 'function' && typeof ctor.prototype === 'object' && hasToolMethods(ctor.prototype as object)) {
        scoped = true;
        problems.push(`${className(ctor)}${where(wrapper)} has @Tool methods (${toolMethods(ctor.prototype as object)}) but is ${whyNotSingleton(wrapper)}; a tool needs one instance for the whole application.`);
      }
      continue;
    }
    const instance = wrapper.instance;
    if (typeof instance !== 'object' || instance === null || instances.has(instance)) continue;
    const prototype = Object.getPrototypeOf(instance) as object | null;
    if (prototype === null || !hasToolMethods(prototype)) continue;
    instances.set(instance, wrapper);
    const same = byClass.get(prototype.constructor) ?? [];
    same.push(wrapper);
    byClass.set(prototype.constructor, same);
  }
  for (const [ctor, same] of byClass) {
    if (same.length < 2) continue;
    problems.push(
      `${className(ctor)} has @Tool methods and ${same.length} instances: it is provided by ${same.map((w) => w.host?.name ?? 'a module').join(', ')}. ` +
        'Provide it in one module and export it from there (import that module where it is injected), so that one instance owns its tools.',
    );
  }
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED).map((p) => `  - ${p}`);
    const more = problems.length > MAX_LISTED ? [`  … and ${problems.length - MAX_LISTED} more`] : [];
    throw new ToolkitError('INVALID_DEFINITION', ['ToolwrightModule cannot register the @Tool methods of:', ...listed, ...more, ...(scoped ? [FIX] : [])].join('\n'));
  }
  return [...instances.keys()];
}
