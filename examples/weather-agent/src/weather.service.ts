import { inject } from 'inversify';
import { Tool, ToolParam, ToolService } from 'toolwright';
import { ForecastRequest } from './forecast-request.js';
import { UserContext } from './user-context.js';
import { WeatherApi } from './weather-api.js';

@ToolService({ group: 'weather' })
export class WeatherService {
  constructor(@inject(WeatherApi) private readonly api: WeatherApi) {}

  @Tool({ name: 'get_weather', description: 'Get the current weather of a city', annotations: { readOnly: true } })
  getWeather(@ToolParam({ name: 'city', description: 'City name, e.g. Paris' }) city: string, user: UserContext): string {
    const now = this.api.current(city);
    if (now === undefined) throw new Error(`No weather station for '${city}'. Known cities: Paris, Tokyo.`);
    return `${city}: ${now.sky}, ${this.format(now.tempC, user)} (for ${user.name})`;
  }

  @Tool({ name: 'get_forecast', description: 'Forecast for the next days' })
  getForecast(@ToolParam({ name: 'request', description: 'City and number of days' }) request: ForecastRequest, user: UserContext): string {
    const base = this.api.current(request.city)?.tempC ?? 15;
    const days = Array.from({ length: request.days }, (_, i) => this.format(base + ((i * 3) % 5) - 2, user));
    return `${request.label()}: ${days.join(', ')}`;
  }

  private format(tempC: number, user: UserContext): string {
    return user.unit === 'fahrenheit' ? `${Math.round(tempC * 1.8 + 32)} °F` : `${tempC} °C`;
  }
}
