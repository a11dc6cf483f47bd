import { Tool, ToolParam, ToolService } from 'toolwright';

/** The service under test: one read-only tool. */
@ToolService()
export class WeatherService {
  @Tool({ name: 'get_weather', description: 'Get the weather of a city', annotations: { readOnly: true } })
  getWeather(@ToolParam({ name: 'city', schema: { minLength: 1, maxLength: 40 } }) city: string, @ToolParam({ name: 'days', schema: { minimum: 1, maximum: 7 } }) days: number): string {
    return `${city}: sunny for ${days} day${days === 1 ? '' : 's'}`;
  }
}
