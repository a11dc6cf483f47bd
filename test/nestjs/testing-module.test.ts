import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Injectable } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { ScriptedProvider, Tool, ToolParam, Toolkit, runToolLoop } from '../../src';
import { ToolwrightModule } from '../../src/nestjs';
import { fuzzTool, recordProvider, replayProvider } from '../../src/testing';

/**
 * The NestJS example of the testing guide (docs/guide/testing.md): `Test.createTestingModule` with
 * `ToolwrightModule`, the service's dependency overridden, a recorded model run replayed, and a
 * tool fuzzed.
 */
@Injectable()
class ForecastApi {
  async temperature(city: string): Promise<number> {
    throw new Error(`no network in tests (${city})`);
  }
}

@Injectable()
class WeatherTools {
  constructor(private readonly api: ForecastApi) {}

  @Tool({ name: 'get_weather', description: 'Get the temperature of a city', annotations: { readOnly: true } })
  async getWeather(@ToolParam({ name: 'city', schema: { type: 'string', minLength: 1, maxLength: 40 } }) city: string): Promise<string> {
    return `${city}: ${await this.api.temperature(city)} °C`;
  }
}

describe('NestJS: testing tools with Test.createTestingModule', () => {
  let moduleRef: TestingModule;
  let toolkit: Toolkit;
  let dir: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-nest-testing-'));
    moduleRef = await Test.createTestingModule({ imports: [ToolwrightModule.forRoot()], providers: [ForecastApi, WeatherTools] })
      .overrideProvider(ForecastApi)
      .useValue({ temperature: async (city: string) => (city.length % 30) + 1 })
      .compile();
    await moduleRef.init();
    toolkit = moduleRef.get(Toolkit);
  });
  afterEach(async () => {
    await moduleRef.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the tool runs on the overridden provider, and a recorded run replays against the module', async () => {
    const cassette = path.join(dir, 'weather.json');
    const live = new ScriptedProvider([ScriptedProvider.toolCall('get_weather', { city: 'Lyon' }), ScriptedProvider.reply('5 °C in Lyon.')]);
    const recorded = await runToolLoop({ provider: recordProvider(live, cassette), model: 'gpt-5', toolkit }, [{ role: 'user', content: 'Lyon?' }]);
    expect(recorded.messages.find((m) => m.role === 'tool')?.content).toBe('Lyon: 5 °C');

    const replayed = await runToolLoop({ provider: replayProvider(cassette), model: 'gpt-5', toolkit }, [{ role: 'user', content: 'Lyon?' }]);
    expect(replayed.messages).toEqual(recorded.messages);
  });

  it('fuzzTool finds nothing wrong with the tool on the overridden provider, and a crash once the provider throws', async () => {
    await expect(fuzzTool(toolkit, 'get_weather', { numRuns: 20, seed: 1, assert: true })).resolves.toMatchObject({ ok: true, validRuns: 20 });

    const failing = await Test.createTestingModule({ imports: [ToolwrightModule.forRoot()], providers: [ForecastApi, WeatherTools] }).compile();
    await failing.init();
    try {
      const report = await fuzzTool(failing.get(Toolkit), 'get_weather', { numRuns: 3, invalidRuns: 0, seed: 1 });
      expect(report.findings.map((f) => f.kind)).toEqual(['crash', 'crash', 'crash']);
      expect(report.findings[0]?.message).toContain('no network in tests');
    } finally {
      await failing.close();
    }
  });
});
