import type { ContextKey } from '../model/execution-context';
import { ToolkitError } from '../errors';
import { markInjectable } from '../di/services';
import { ownRecords, recordParam, type ToolOptions, type ToolParamOptions, type ToolServiceOptions } from '../metadata/records';

/**
 * @internal Refuses a method decorator called as a standard (TC39) decorator — `(method, context)`
 * instead of `(prototype, name)` — which is what a compiler without `experimentalDecorators` does
 * (Bun does so silently): the records would land nowhere, and registration would only say the
 * class has no tools.
 *
 * @throws ToolkitError `INVALID_DEFINITION` naming the tsconfig flag.
 */
export function legacyOnly(decorator: string, key: unknown): void {
  if (typeof key !== 'object' || key === null) return;
  const name = (key as { name?: unknown }).name;
  throw new ToolkitError(
    'INVALID_DEFINITION',
    `${decorator} on ${typeof name === 'string' ? name : 'a method'} ran as a standard (TC39) decorator, which cannot decorate parameters: ` +
      'toolwright\'s decorators are TypeScript\'s experimental ones. Set "experimentalDecorators": true in the tsconfig.json your ' +
      'compiler reads (Bun reads the project\'s for the whole run; tsx takes --tsconfig).',
  );
}

/**
 * Marks a method as a tool. Records metadata only; `registerTool` checks it.
 *
 * @example
 * @Tool({ name: 'get_weather', description: 'Get weather information' })
 * async getWeather(@ToolParam({ name: 'city' }) city: string) { … }
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@Tool', propertyKey);
    const methodName = String(propertyKey);
    ownRecords(target).tools.set(methodName, { methodName, options: { ...options } });
  };
}

/**
 * Describes a parameter the model fills (or a preset fills, when one is configured).
 * Parameters without `@ToolParam` are injected by type: context classes, `ToolEmitter`,
 * `AbortSignal`.
 *
 * @example
 * @ToolParam({ name: 'days', description: 'Forecast days', required: false, schema: { minimum: 1 } })
 */
export function ToolParam(options: ToolParamOptions = {}): ParameterDecorator {
  return (target, propertyKey, index) => {
    if (propertyKey === undefined) return; // constructor parameters belong to Inversify
    recordParam(target, String(propertyKey), index, { options: { ...options } });
  };
}

/**
 * Injects the context object registered under `key` (a class, or a symbol or string token) into
 * a tool parameter. Without it, a parameter typed with a class is injected by that type — which
 * needs decorator metadata: under esbuild, tsx and vitest (no metadata) say the key here, or
 * use the build-time manifest written as a module. A token key injects a non-class value
 * (`@InjectContext(TENANT_ID) tenantId: string`); `ToolEmitter`, `AbortSignal` and
 * `ClientRequests` as keys inject the call's emitter, signal and client requests, as their types do.
 *
 * @example
 * @Tool({ description: 'My orders' })
 * listOrders(@InjectContext(UserContext) user: UserContext) { … }
 * @throws ToolkitError `INVALID_DEFINITION` when `key` is not a class, a symbol or a non-empty string.
 */
export function InjectContext(key: ContextKey): ParameterDecorator {
  const valid = typeof key === 'function' || typeof key === 'symbol' || (typeof key === 'string' && key !== '');
  if (!valid) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `@InjectContext needs the key the context object is registered under: a class, a symbol or a non-empty string (got ${
        key === undefined ? 'undefined: is the class imported before it is declared?' : typeof key
      }).`,
    );
  }
  return (target, propertyKey, index) => {
    if (propertyKey === undefined) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `@InjectContext is on a constructor parameter of ${(target as { name?: string }).name ?? 'a class'}: it injects into tool methods. Use Inversify's @inject for constructors.`,
      );
    }
    recordParam(target, String(propertyKey), index, { context: key });
  };
}

/**
 * Marks a class as a tool service: injectable by Inversify (constructor injection) and the
 * default group of its tools.
 *
 * @example
 * @ToolService({ group: 'weather' })
 * class WeatherService { constructor(@inject(HttpClient) private http: HttpClient) {} }
 */
export function ToolService(options: ToolServiceOptions = {}): ClassDecorator {
  return (target) => {
    ownRecords(target.prototype as object).service = { ...options };
    markInjectable(target);
  };
}
