import { inject } from 'inversify';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { Tool, ToolEmitter, ToolParam, ToolService } from '../../../src';
import { WeatherApi } from './http-client';

/** Where and how far ahead: a DTO validated by class-validator, delivered as an instance. */
export class ForecastWindow {
  @IsInt() @Min(1) @Max(14) days!: number;
  @IsOptional() @IsIn(['celsius', 'fahrenheit']) unit?: 'celsius' | 'fahrenheit';
}

export class ForecastRequest {
  @IsString() @Length(2, 80) city!: string;
  @ValidateNested() @Type(() => ForecastWindow) window!: ForecastWindow;

  label(): string {
    return `${this.city}, ${this.window.days} day(s)`;
  }
}

@ToolService({ group: 'weather' })
export class WeatherService {
  constructor(@inject(WeatherApi) private readonly api: WeatherApi) {}

  @Tool({ name: 'get_weather', description: 'Get the current weather of a city', annotations: { readOnly: true } })
  async getWeather(
    @ToolParam({ name: 'city', description: 'City name, e.g. Paris' }) city: string,
    @ToolParam({ name: 'unit', description: 'Temperature unit', required: false, enum: ['celsius', 'fahrenheit'] })
    unit: string | undefined,
  ): Promise<string> {
    const now = await this.api.current(city);
    if (!now) throw new Error(`No weather station for '${city}'. Known cities: Paris, London, Tokyo, New York.`);
    const temp = unit === 'fahrenheit' ? `${Math.round(now.tempC * 1.8 + 32)} °F` : `${now.tempC} °C`;
    return `${city}: ${now.sky}, ${temp}`;
  }

  @Tool({ name: 'get_forecast', description: 'Forecast for the next days', timeoutMs: 5_000 })
  async getForecast(
    @ToolParam({ name: 'request', description: 'City and forecast window' }) request: ForecastRequest,
    emitter: ToolEmitter,
  ): Promise<{ city: string; days: { day: number; tempC: number }[] }> {
    const now = await this.api.current(request.city);
    const base = now?.tempC ?? 15;
    const days = [];
    for (let day = 1; day <= request.window.days; day++) {
      emitter.emit({ progress: day, total: request.window.days, message: `forecasting ${request.label()}` });
      days.push({ day, tempC: base + ((day * 7) % 5) - 2 });
    }
    return { city: request.city, days };
  }
}
