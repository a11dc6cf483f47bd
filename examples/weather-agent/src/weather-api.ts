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
    ['tokyo', { tempC: 22, sky: 'sunny' }],
  ]);

  current(city: string): Conditions | undefined {
    return this.cities.get(city.toLowerCase());
  }
}
