import { injectable } from 'inversify';

/** A stand-in for a real HTTP client: deterministic weather so the demo needs no network. */
@injectable()
export class WeatherApi {
  private readonly climates: Record<string, { tempC: number; sky: string }> = {
    paris: { tempC: 18, sky: 'partly cloudy' },
    london: { tempC: 14, sky: 'light rain' },
    tokyo: { tempC: 22, sky: 'sunny' },
    'new york': { tempC: 20, sky: 'clear' },
  };

  async current(city: string): Promise<{ tempC: number; sky: string } | undefined> {
    return this.climates[city.toLowerCase()];
  }
}
