import { markInjectable } from '../di/services';
import { ownRecords, type ToolOptions, type ToolParamOptions, type ToolServiceOptions } from '../metadata/records';

/**
 * Marks a method as a tool. Records metadata only; `registerTool` checks it.
 *
 * @example
 * @Tool({ name: 'get_weather', description: 'Get weather information' })
 * async getWeather(@ToolParam({ name: 'city' }) city: string) { … }
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
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
    const methodName = String(propertyKey);
    const records = ownRecords(target);
    let params = records.params.get(methodName);
    if (!params) records.params.set(methodName, (params = new Map()));
    params.set(index, { options: { ...options } });
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
