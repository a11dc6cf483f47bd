/** The stand-in weather client of examples/weather-agent: deterministic weather, no network. */
export { WeatherApi } from '../../weather-agent/src/weather-api.js';
