import 'reflect-metadata';
import path from 'node:path';
import { ScriptedProvider, Toolkit, runToolLoop, type LLMProvider } from 'toolwright';
import { fuzzTool, recordProvider, replayProvider } from 'toolwright/testing';
import { WeatherService } from './weather.service';

const cassette = path.join(__dirname, '..', 'cassettes', 'weather.json');

/**
 * `npm run record` records against the model (here a scripted one stands in for
 * `new OpenAIProvider(new OpenAI())`); `npm test` replays the cassette with no model.
 */
function model(): LLMProvider {
  if (process.env.RECORD !== '1') return replayProvider(cassette);
  const live = new ScriptedProvider([ScriptedProvider.toolCall('get_weather', { city: 'Paris', days: 2 }), ScriptedProvider.reply('Sunny in Paris for two days.')]);
  return recordProvider(live, cassette);
}

function toolkit(): Toolkit {
  const kit = new Toolkit();
  kit.registerTool(new WeatherService());
  return kit;
}

test('the agent answers from the recorded run', async () => {
  const result = await runToolLoop({ provider: model(), model: 'gpt-5', toolkit: toolkit() }, [{ role: 'user', content: 'Weather in Paris for two days?' }]);
  expect(result.content).toBe('Sunny in Paris for two days.');
  expect(result.messages.find((m) => m.role === 'tool')?.content).toBe('Paris: sunny for 2 days');
});

test('a changed prompt fails loudly instead of answering from a stale recording', async () => {
  await expect(runToolLoop({ provider: replayProvider(cassette), model: 'gpt-5', toolkit: toolkit() }, [{ role: 'user', content: 'Weather in Rome?' }])).rejects.toThrow(
    'messages[0].content: recorded "Weather in Paris for two days?", got "Weather in Rome?"',
  );
});

test('get_weather survives generated arguments', async () => {
  const report = await fuzzTool(toolkit(), 'get_weather', { numRuns: 30, seed: 1, assert: true });
  expect(report.ok).toBe(true);
});
