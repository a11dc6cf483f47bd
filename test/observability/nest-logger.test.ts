import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Tool, ToolParam, Toolkit } from '../../src';
import { ToolwrightModule } from '../../src/nestjs';
import { PINO_LEVEL, pinoLogger } from '../support/loggers';

@Injectable()
class WeatherTools {
  @Tool({ name: 'get_weather', description: 'Get the temperature of a city' })
  getWeather(@ToolParam({ name: 'city' }) city: string): string {
    return `${city}: 5 °C`;
  }
}

describe('ToolwrightModule.forRoot({ logger })', () => {
  it("hands the logger to the module's toolkit: the tools found at start-up and each call are logged", async () => {
    const { logger, lines } = pinoLogger('debug');
    const moduleRef = await Test.createTestingModule({ imports: [ToolwrightModule.forRoot({ logger })], providers: [WeatherTools] }).compile();
    try {
      await moduleRef.init();
      const toolkit = moduleRef.get(Toolkit);
      await toolkit.callTool({ id: 'n1', name: 'get_weather', arguments: {} });
      expect(lines()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ level: PINO_LEVEL.debug, event: 'tools_registered', tools: ['get_weather'] }),
          expect.objectContaining({ level: PINO_LEVEL.warn, event: 'call_failed', callId: 'n1', code: 'INVALID_ARGUMENTS' }),
        ]),
      );
    } finally {
      await moduleRef.close();
    }
  });
});
