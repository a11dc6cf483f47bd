import { injectable } from 'inversify';

/** One city's weather now. */
export interface Conditions {
  readonly tempC: number;
  readonly sky: string;
}

/** Stands in for a real HTTP client: fixed weather, so the example needs no network or key. */
@injectable()
export class WeatherApi {
  private readonly cities = new Map<string, Conditions>([
    ['paris', { tempC: 18, sky: 'partly cloudy' }],
    ['london', { tempC: 14, sky: 'light rain' }],
    ['tokyo', { tempC: 22, sky: 'sunny' }],
    ['new york', { tempC: 20, sky: 'clear' }],
  ]);

  async current(city: string): Promise<Conditions | undefined> {
    return this.cities.get(city.toLowerCase());
  }
}
