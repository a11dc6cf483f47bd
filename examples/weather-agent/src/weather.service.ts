import { inject } from 'inversify';
import { Tool, ToolEmitter, ToolParam, ToolService } from 'toolwright';
import { ForecastRequest } from './forecast-request.js';
import { WeatherApi } from './weather-api.js';

/** Temperatures in the unit asked for. */
function temperature(tempC: number, unit: string | undefined): string {
  return unit === 'fahrenheit' ? `${Math.round(tempC * 1.8 + 32)} °F` : `${tempC} °C`;
}

@ToolService({ group: 'weather' })
export class WeatherService {
  constructor(@inject(WeatherApi) private readonly api: WeatherApi) {}

  @Tool({ name: 'get_weather', description: 'Get the current weather of a city', annotations: { readOnly: true } })
  async getWeather(
    @ToolParam({ name: 'city', description: 'City name, e.g. Paris' }) city: string,
    @ToolParam({ name: 'unit', description: 'Temperature unit', required: false, enum: ['celsius', 'fahrenheit'] }) unit: string | undefined,
  ): Promise<string> {
    const now = await this.api.current(city);
    if (now === undefined) throw new Error(`No weather station for '${city}'. Known cities: Paris, London, Tokyo, New York.`);
    return `${city}: ${now.sky}, ${temperature(now.tempC, unit)}`;
  }

  @Tool({ name: 'get_forecast', description: 'Forecast for the next days', timeoutMs: 5_000 })
  async getForecast(
    @ToolParam({ name: 'request', description: 'City and forecast window' }) request: ForecastRequest,
    emitter: ToolEmitter,
  ): Promise<{ city: string; days: { day: number; tempC: number }[] }> {
    const base = (await this.api.current(request.city))?.tempC ?? 15;
    const days = [];
    for (let day = 1; day <= request.window.days; day++) {
      emitter.emit({ progress: day, total: request.window.days, message: `forecasting ${request.label()}` });
      days.push({ day, tempC: base + ((day * 7) % 5) - 2 });
    }
    return { city: request.city, days };
  }
}
