import { Tool, ToolParam, ToolService } from 'toolwright';
import type { ToolResult } from 'toolwright';

@ToolService({ group: 'weather' })
export class WeatherService {
  @Tool({ name: 'get_forecast', description: 'Forecast of a city for the next days' })
  getForecast(
    @ToolParam({ name: 'city', description: 'City name, e.g. Paris' }) city: string,
    @ToolParam({ name: 'days', description: 'Number of days (1-7)', integer: true, schema: { minimum: 1, maximum: 7 } }) days: number,
    // a preset: set by the application, never in the schema the model sees
    @ToolParam({ name: 'apiKey', preset: true }) apiKey: string,
  ): ToolResult {
    const temps = Array.from({ length: days }, (_, i) => 16 + ((i * 3) % 5));
    return {
      forLLM: `${city}, ${days} days: ${temps.map((t) => `${t} °C`).join(', ')}`,
      forUser: `📅 ${city}: ${temps.join('/')} °C${apiKey.length > 0 ? '' : ' (no key)'}`,
      data: { city, temps },
      silent: false,
      isError: false,
      async: false,
    };
  }
}
