import type { DynamicModule, FactoryProvider, ModuleMetadata, OnApplicationShutdown, OnModuleInit, Provider } from '@nestjs/common';
import type { DiscoveryService, ModuleRef } from '@nestjs/core';
import { isContainerPreset } from '../di/container-preset';
import { ToolkitError } from '../errors';
import type { PresetMap, PresetValue } from '../executor/presets/presets';
import { setAmbientContext, Toolkit } from '../toolkit/toolkit';
import { checkModuleOptions, createModuleToolkit, registerModuleServices, type ToolwrightModuleOptions } from '../toolkit/toolwright-module';
import { discoverToolServices } from './nest-discovery';
import { loadNestCore } from './nest-peer';
import { RequestCallers, type NestPrincipalSource } from './request-caller';

/**
 * Options of {@link ToolwrightModule.forRoot}: the `Toolkit` constructor options plus `groups`
 * (`{ name, description?, active? }`, created before any tool is registered) and `presets` (by
 * tool name, then parameter name, as in `presetParameters`). There is no `services`: the module
 * finds the tool providers of the application itself. A `fromContainer(token)` preset resolves
 * `token` from the Nest application at call time.
 *
 * @example
 * const options: ToolwrightNestOptions = {
 *   groups: [{ name: 'admin', description: 'Admin tools', active: false }],
 *   presets: { send_mail: { apiKey: fromContainer('MAIL_API_KEY') } },
 * };
 */
export interface ToolwrightNestOptions extends Omit<ToolwrightModuleOptions, 'services'> {
  /**
   * Who calls, per request: `(request, context) => Principal | undefined` (or a Promise), called
   * after the guards (`request.user` is set). Every call and list the module's `Toolkit` makes
   * while the request is handled — in controllers, services, sessions, `runToolLoop` — is made as
   * that caller, under any context the code passes itself. See {@link NestPrincipalSource}.
   */
  readonly principal?: NestPrincipalSource | undefined;
}

/**
 * Options of {@link ToolwrightModule.forRootAsync}: Nest's usual async configuration. `useFactory`
 * receives the providers named in `inject` (from the modules in `imports`, or global ones) and
 * returns the {@link ToolwrightNestOptions}, or a Promise of them.
 *
 * @example
 * ToolwrightModule.forRootAsync({
 *   imports: [ConfigModule],
 *   inject: [ConfigService],
 *   useFactory: (config: ConfigService) => ({ presets: { send_mail: { apiKey: () => config.get('MAIL_API_KEY') } } }),
 * });
 */
export interface ToolwrightNestAsyncOptions {
  /** Modules whose exported providers `useFactory` injects. */
  readonly imports?: ModuleMetadata['imports'];
  /** The providers `useFactory` receives, in order. */
  readonly inject?: FactoryProvider['inject'];
  /** Makes the options from the injected providers. */
  readonly useFactory: (...providers: never[]) => ToolwrightNestOptions | Promise<ToolwrightNestOptions>;
}

/** The options of the module instance, as a Nest provider. */
const OPTIONS = Symbol('toolwright/nestjs options');

/**
 * What the module does at the application's start and shutdown. `onModuleInit` of a global
 * module runs before that of every other (non-global) module, and every `onModuleInit` before any
 * `onApplicationBootstrap`, while every singleton already exists: providers may use the toolkit's
 * tools in their `onApplicationBootstrap` (and in `onModuleInit` of non-global modules).
 */
class ToolwrightLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly toolkit: Toolkit,
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    private readonly options: ToolwrightNestOptions,
  ) {}

  /** Registers every discovered tool provider, with the presets, in one registration. */
  onModuleInit(): void {
    const presets = this.options.presets === undefined ? undefined : this.fromApplication(this.options.presets);
    registerModuleServices(this.toolkit, discoverToolServices(this.discovery), presets);
  }

  /** Closes the toolkit's sessions (a skill still active in one gets its `onDeactivate`). */
  onApplicationShutdown(): void {
    for (const id of this.toolkit.getSessionIds()) this.toolkit.session(id).close();
  }

  /** `fromContainer(token)` presets resolve `token` in the Nest application, at call time. */
  private fromApplication(presets: PresetMap): PresetMap {
    const moduleRef = this.moduleRef;
    const resolve = (value: PresetValue): PresetValue => {
      if (!isContainerPreset(value)) return value;
      const token = value.token as Parameters<ModuleRef['get']>[0];
      return () => moduleRef.get(token, { strict: false });
    };
    return Object.fromEntries(Object.entries(presets).map(([tool, values]) => [tool, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, resolve(v)]))]));
  }
}

function checkNestOptions(options: ToolwrightNestOptions, caller: string): void {
  checkModuleOptions(options, caller);
  if (options.principal !== undefined && typeof options.principal !== 'function') {
    throw new ToolkitError('INVALID_OPTIONS', `${caller}: principal must be a function (request) => Principal | undefined, e.g. (request) => request.user && new Principal(request.user.id, { scopes: request.user.scopes }).`);
  }
  if ('services' in options) {
    throw new ToolkitError(
      'INVALID_OPTIONS',
      `${caller}: there is no services option: the module registers the @Tool methods of every singleton provider of the application. ` +
        'List the classes as providers of your modules instead.',
    );
  }
}

function toolwrightModule(imports: NonNullable<ModuleMetadata['imports']>, options: Provider, callers: boolean): DynamicModule {
  const { APP_INTERCEPTOR, DiscoveryModule, DiscoveryService, ModuleRef } = loadNestCore();
  const interceptor: Provider[] = callers ? [{ provide: APP_INTERCEPTOR, useExisting: RequestCallers }] : [];
  return {
    module: ToolwrightModule,
    global: true,
    imports: [DiscoveryModule, ...imports],
    providers: [
      options,
      { provide: RequestCallers, inject: [OPTIONS], useFactory: (resolved: ToolwrightNestOptions) => new RequestCallers(resolved.principal) },
      ...interceptor,
      {
        provide: Toolkit,
        inject: [OPTIONS, RequestCallers],
        useFactory: (resolved: ToolwrightNestOptions, requests: RequestCallers) => {
          const { principal, ...toolkitOptions } = resolved;
          const toolkit = createModuleToolkit(toolkitOptions);
          if (principal !== undefined) setAmbientContext(toolkit, () => requests.current());
          return toolkit;
        },
      },
      {
        provide: ToolwrightLifecycle,
        inject: [Toolkit, DiscoveryService, ModuleRef, OPTIONS],
        useFactory: (toolkit: Toolkit, discovery: DiscoveryService, moduleRef: ModuleRef, resolved: ToolwrightNestOptions) =>
          new ToolwrightLifecycle(toolkit, discovery, moduleRef, resolved),
      },
    ],
    exports: [Toolkit],
  };
}

/**
 * toolwright as a NestJS (11 or 12) module: a global module that provides `Toolkit` for injection
 * and, when the application starts (`onModuleInit`), registers the `@Tool` methods of every
 * singleton provider and controller of the application, on the instances Nest made (with Nest's
 * constructor injection; no `@ToolService` needed). All of them are registered together with the
 * `presets`, so a preset may name any discovered tool. Sessions are closed on shutdown.
 *
 * @example
 * @Module({
 *   imports: [ToolwrightModule.forRoot({ groups: [{ name: 'admin', description: 'Admin tools', active: false }] })],
 *   providers: [WeatherApi, WeatherTools],
 * })
 * export class AppModule {}
 * // anywhere: constructor(private readonly toolkit: Toolkit) {}
 *
 * @throws ToolkitError at `forRoot`: `INVALID_OPTIONS`; at start (`app.init()`, `listen()`, or
 * `createApplicationContext`): `INVALID_DEFINITION` for a request-scoped or transient provider with
 * `@Tool` methods, a tool class provided by several modules, or presets naming a tool no provider
 * has; `DUPLICATE_TOOL` when two providers define one tool name; the other definition errors of
 * `registerTool`.
 */
export class ToolwrightModule {
  /**
   * The module with options known up front.
   *
   * @throws ToolkitError `INVALID_OPTIONS` for malformed options, `PEER_DEPENDENCY_MISSING` without `@nestjs/core`.
   */
  static forRoot(options: ToolwrightNestOptions = {}): DynamicModule {
    checkNestOptions(options, 'ToolwrightModule.forRoot');
    return toolwrightModule([], { provide: OPTIONS, useValue: options }, options.principal !== undefined);
  }

  /**
   * The module with options made by a factory from other providers (configuration, secrets).
   *
   * @throws ToolkitError `INVALID_OPTIONS` when `useFactory` is not a function (at once) or returns
   * malformed options (at start); `PEER_DEPENDENCY_MISSING` without `@nestjs/core`.
   */
  static forRootAsync(options: ToolwrightNestAsyncOptions): DynamicModule {
    if (typeof options?.useFactory !== 'function') {
      throw new ToolkitError('INVALID_OPTIONS', 'ToolwrightModule.forRootAsync: useFactory must be a function returning the options: { inject: [ConfigService], useFactory: (config) => ({ … }) }.');
    }
    const make = options.useFactory as (...providers: unknown[]) => ToolwrightNestOptions | Promise<ToolwrightNestOptions>;
    // the options are known only at start: the interceptor is installed and passes through without a principal source
    return toolwrightModule(options.imports ?? [], {
      provide: OPTIONS,
      inject: options.inject ?? [],
      useFactory: async (...providers: unknown[]) => {
        const resolved = await make(...providers);
        checkNestOptions(resolved, 'ToolwrightModule.forRootAsync: the options useFactory returned');
        return resolved;
      },
    }, true);
  }
}
