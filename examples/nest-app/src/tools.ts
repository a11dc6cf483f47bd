import { Injectable } from '@nestjs/common';
import { Tool, ToolParam, ToolService } from 'toolwright';

/** An ordinary Nest provider: what the tools inject. */
@Injectable()
export class WeatherApi {
  forecast(city: string, days: number): number[] {
    return Array.from({ length: days }, (_, i) => 16 + ((i * 3) % 5));
  }
}

/** Who is asking: built from the request by the controller, injected into tools by type. */
export class UserContext {
  constructor(
    readonly id: string,
    readonly email: string,
  ) {}
}

/** A Nest provider with tools: Nest builds it (constructor injection), toolwright finds it at start. */
@Injectable()
export class WeatherTools {
  constructor(private readonly api: WeatherApi) {}

  @Tool({ name: 'get_forecast', description: 'Forecast of a city for the next days' })
  getForecast(
    @ToolParam({ name: 'city', description: 'City name, e.g. Paris' }) city: string,
    @ToolParam({ name: 'days', description: 'Number of days (1-7)', integer: true, schema: { minimum: 1, maximum: 7 } }) days: number,
  ): string {
    return `${city}, ${days} days: ${this.api.forecast(city, days).map((t) => `${t} °C`).join(', ')}`;
  }
}

@Injectable()
export class MailTools {
  @Tool({ name: 'send_report', description: 'Mail a text to the user who asks' })
  sendReport(
    @ToolParam({ name: 'text', description: 'What to send' }) text: string,
    // a preset (set in AppModule from the configuration): never in the schema the model sees
    @ToolParam({ name: 'apiKey' }) apiKey: string,
    user: UserContext,
  ): string {
    return `sent to ${user.email}${apiKey.startsWith('sk-') ? '' : ' (no key)'}: ${text}`;
  }
}

/** `@ToolService` gives the class's tools a default group; the group starts off (AppModule). */
@ToolService({ group: 'admin' })
@Injectable()
export class AdminTools {
  @Tool({ name: 'wipe_cache', description: 'Wipe the forecast cache' })
  wipeCache(): string {
    return 'cache wiped';
  }
}
