import { Container } from 'inversify';
import { runToolLoop, ScriptedProvider, Toolkit } from 'toolwright';
import { WeatherApi } from './weather-api.js';
import { WeatherService } from './weather.service.js';

const container = new Container();
container.bind(WeatherApi).toSelf().inSingletonScope();

const toolkit = new Toolkit({ container });
toolkit.registerTool(WeatherService);

toolkit.events$.subscribe((event) => {
  if (event.type === 'call_progress') console.log(`  … ${event.progress.message ?? ''} (${event.progress.progress ?? 0}/${event.progress.total ?? 0})`);
  if (event.type === 'call_succeeded') console.log(`  ✓ ${event.tool}`);
  if (event.type === 'call_failed') console.log(`  ✗ ${event.tool}: ${event.error.code}`);
});

// A scripted model (no API key): swap in OpenAIProvider from 'toolwright/openai' for a real one.
const model = new ScriptedProvider([
  ScriptedProvider.toolCall('get_forecast', { request: { city: 'Paris', window: { days: 0.5 } } }),
  ScriptedProvider.toolCall('get_forecast', { request: { city: 'Paris', window: { days: 3 } } }),
  ScriptedProvider.toolCall('get_weather', { city: 'Tokyo', unit: 'fahrenheit' }),
  ScriptedProvider.reply('Paris stays mild over three days; Tokyo is sunny now.'),
]);

const result = await runToolLoop({ provider: model, model: 'scripted', toolkit }, [
  { role: 'user', content: 'What will the weather be like in Paris, and how is Tokyo now?' },
]);

for (const message of result.messages) {
  if (message.role === 'tool') console.log(`tool: ${message.content.split('\n')[0]}`); // an error's first line: what failed
}
console.log(`model: ${result.content}`);
console.log(`tools offered: ${toolkit.toProviderDefs('openai').map((def) => def.function.name).join(', ')}`);
