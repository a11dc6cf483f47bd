/**
 * The demo's weather tools are those of the standalone example project examples/weather-agent
 * (one source; that project imports nothing from this repository and runs against the packed
 * package).
 */
export { ForecastRequest, ForecastWindow } from '../../weather-agent/src/forecast-request.js';
export { WeatherService } from '../../weather-agent/src/weather.service.js';
