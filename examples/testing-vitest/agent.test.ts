import 'reflect-metadata';
import path from 'node:path';
import { ScriptedProvider, Tool, ToolParam, Toolkit, runToolLoop, type LLMProvider } from 'toolwright';
import { fuzzTool, recordProvider, replayProvider } from 'toolwright/testing';
import { describe, expect, test } from 'vitest';

class WeatherService {
  @Tool({ name: 'get_weather', description: 'Get the weather of a city', annotations: { readOnly: true } })
  getWeather(@ToolParam({ name: 'city', schema: { minLength: 1, maxLength: 40 } }) city: string): string {
    return `${city}: sunny`;
  }
}

const cassette = path.join(import.meta.dirname, 'cassettes', 'weather.json');

/** `RECORD=1 npx vitest run` records (a real provider goes where the scripted one is); `npx vitest run` replays. */
function model(): LLMProvider {
  if (process.env.RECORD !== '1') return replayProvider(cassette);
  return recordProvider(new ScriptedProvider([ScriptedProvider.toolCall('get_weather', { city: 'Oslo' }), ScriptedProvider.reply('Sunny in Oslo.')]), cassette);
}

function toolkit(): Toolkit {
  const kit = new Toolkit();
  kit.registerTool(new WeatherService());
  return kit;
}

describe('weather agent', () => {
  test('the toolchain emits decorator metadata', () => {
    // Vite 8 reads `emitDecoratorMetadata` from tsconfig.json; without it this is undefined.
    expect(Reflect.getMetadata('design:paramtypes', WeatherService.prototype, 'getWeather')).toEqual([String]);
  });

  test('answers from the recorded run', async () => {
    const result = await runToolLoop({ provider: model(), model: 'gpt-5', toolkit: toolkit() }, [{ role: 'user', content: 'Weather in Oslo?' }]);
    expect(result.content).toBe('Sunny in Oslo.');
  });

  test('get_weather survives generated arguments', async () => {
    await expect(fuzzTool(toolkit(), 'get_weather', { numRuns: 30, assert: true })).resolves.toMatchObject({ ok: true });
  });
});
