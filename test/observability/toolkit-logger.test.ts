import 'reflect-metadata';
import { Container } from 'inversify';
import { defineSkill, Toolkit, ToolkitError, type AgentTool, type ToolwrightLogger } from '../../src';
import { findLeaks } from '../support/leaks';
import { consoleLogger, PINO_LEVEL, pinoLogger, throwingLogger } from '../support/loggers';

/** A tool with a preset `key` that leaks it every way a tool can: thrown, logged, reported, returned. */
function leakyTool(): AgentTool {
  return {
    name: 'fetch_api',
    description: 'Fetches from the API with its key',
    parameters: { type: 'object', properties: { exit: { type: 'string' }, key: { type: 'string' } }, required: ['exit'] },
    behaviour: { retry: { maxAttempts: 2, initialBackoffMs: 1 } },
    execute: (args, ctx) => {
      const key = String(args.key);
      const forms = `${key} ${encodeURIComponent(key)} ${JSON.stringify({ key })} ${new URLSearchParams({ key })}`;
      ctx.log?.('error', { url: `https://api.example/?key=${encodeURIComponent(key)}`, forms });
      ctx.emit({ progress: 1, total: 2, message: forms });
      if (args.exit === 'throw') throw new Error(`request failed: ${forms}`, { cause: { key } });
      return { forLLM: forms, forUser: forms, silent: false, isError: false, async: false, data: { key } };
    },
  };
}

const tool = (name: string, execute: AgentTool['execute'] = () => 'ok', group?: string): AgentTool => ({
  name,
  description: `The ${name} tool`,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  ...(group !== undefined ? { group } : {}),
  execute,
});

describe('new Toolkit({ logger }) with a real pino logger', () => {
  it('logs registrations and each call at debug, failures at warn, with ids, codes and durations only', async () => {
    const { logger, lines } = pinoLogger('debug');
    const toolkit = new Toolkit({ container: new Container(), logger });
    toolkit.registerTool(tool('get_weather', () => 'sunny'));
    toolkit.registerSkill(defineSkill({ name: 'forecast', description: 'Forecasts', tools: ['get_weather'] }));
    await toolkit.callTool({ id: 'call_ok', name: 'get_weather', arguments: { city: 'Paris' } });
    await toolkit.callTool({ id: 'call_bad', name: 'get_weather', arguments: { city: 42 } });
    await toolkit.callTool({ id: 'call_unknown', name: 'get_wether', arguments: {} });

    const all = lines();
    expect(all).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: PINO_LEVEL.debug, event: 'tools_registered', tools: ['get_weather'], msg: 'registered 1 tool(s)' }),
        expect.objectContaining({ level: PINO_LEVEL.debug, event: 'skill_registered', skill: 'forecast' }),
        expect.objectContaining({ level: PINO_LEVEL.debug, event: 'call_started', callId: 'call_ok', tool: 'get_weather' }),
        expect.objectContaining({ level: PINO_LEVEL.debug, event: 'call_succeeded', callId: 'call_ok', tool: 'get_weather', attempts: 1, durationMs: expect.any(Number) }),
        expect.objectContaining({ level: PINO_LEVEL.warn, event: 'call_failed', callId: 'call_bad', code: 'INVALID_ARGUMENTS', msg: expect.stringMatching(/^call get_weather failed: INVALID_ARGUMENTS \(\d+ ms\)$/) }),
        expect.objectContaining({ level: PINO_LEVEL.warn, event: 'call_failed', callId: 'call_unknown', tool: 'get_wether', code: 'UNKNOWN_TOOL' }),
      ]),
    );
    // arguments and results never: not Paris, not 42, not sunny
    expect(JSON.stringify(all)).not.toMatch(/Paris|sunny|"city"/);
  });

  it('at info, a successful call writes nothing; a timed-out call writes one warning', async () => {
    const { logger, lines } = pinoLogger('info');
    const toolkit = new Toolkit({ container: new Container(), logger });
    toolkit.registerTool({ ...tool('slow', (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('late')))), behaviour: { timeoutMs: 20 } });
    toolkit.registerTool(tool('fast'));
    await toolkit.callTool({ id: 'c1', name: 'fast', arguments: { city: 'x' } });
    expect(lines()).toEqual([]);
    const result = await toolkit.callTool({ id: 'c2', name: 'slow', arguments: { city: 'x' } });
    expect(result.error?.code).toBe('TIMEOUT');
    expect(lines()).toEqual([expect.objectContaining({ level: PINO_LEVEL.warn, event: 'call_timed_out', callId: 'c2', tool: 'slow', code: 'TIMEOUT', timeoutMs: 20 })]);
  });

  it("forwards a tool's own log messages at their level", async () => {
    const { logger, lines } = pinoLogger('debug');
    const toolkit = new Toolkit({ container: new Container(), logger });
    toolkit.registerTool(tool('noisy', (_args, ctx) => (ctx.log?.('warning', { quota: 'low' }, 'billing'), 'ok')));
    await toolkit.callTool({ id: 'c1', name: 'noisy', arguments: { city: 'x' } });
    expect(lines()).toContainEqual(expect.objectContaining({ level: PINO_LEVEL.warn, event: 'call_log', tool: 'noisy', logger: 'billing', data: { quota: 'low' } }));
  });

  it('cuts a hostile tool name or call id to a bounded length', async () => {
    const { logger, lines } = pinoLogger('debug');
    const toolkit = new Toolkit({ container: new Container(), logger });
    await toolkit.callTool({ id: 'i'.repeat(100_000), name: 'n'.repeat(1_000_000), arguments: {} });
    const longest = Math.max(...lines().map((line) => JSON.stringify(line).length));
    expect(longest).toBeLessThan(1_000);
  });
});

describe('new Toolkit({ logger: console })', () => {
  it('prints the fields and the message of each line', async () => {
    const { logger, text } = consoleLogger();
    const toolkit = new Toolkit({ container: new Container(), logger });
    toolkit.registerTool(tool('get_weather'));
    await toolkit.callTool({ id: 'call_bad', name: 'get_weather', arguments: {} });
    expect(text()).toContain("event: 'call_failed'");
    expect(text()).toContain("callId: 'call_bad'");
    expect(text()).toContain("code: 'INVALID_ARGUMENTS'");
    expect(text()).toMatch(/call get_weather failed: INVALID_ARGUMENTS \(\d+ ms\)/);
  });
});

describe('a logger never costs a call', () => {
  it('a logger that throws on every line does not fail any call', async () => {
    const throwing = throwingLogger();
    const toolkit = new Toolkit({ container: new Container(), logger: throwing });
    toolkit.registerTool(tool('get_weather', () => 'sunny'));
    expect((await toolkit.callTool({ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } })).forLLM).toBe('sunny');
    expect((await toolkit.callTool({ id: 'c2', name: 'get_weather', arguments: {} })).error?.code).toBe('INVALID_ARGUMENTS');
    const batch = await toolkit.callTools([
      { id: 'b1', name: 'get_weather', arguments: { city: 'a' } },
      { id: 'b2', name: 'nope', arguments: {} },
    ]);
    expect(batch.map((r) => r.isError)).toEqual([false, true]);
  });

  it('without a logger nothing subscribes to the events (no event is even made)', () => {
    const toolkit = new Toolkit({ container: new Container() });
    expect(toolkit['runtime'].events.observed).toBe(false);
    const logged = new Toolkit({ container: new Container(), logger: console });
    expect(logged['runtime'].events.observed).toBe(true);
  });

  it('refuses a logger without the four methods, naming what is missing', () => {
    const partial = { info: () => undefined, warn: () => undefined } as unknown as ToolwrightLogger;
    expect(() => new Toolkit({ logger: partial })).toThrow(ToolkitError);
    expect(() => new Toolkit({ logger: partial })).toThrow(/logger must have debug, info, warn and error methods.*lacks debug, error/);
  });
});

describe('attack: a preset secret never reaches the logger', () => {
  const SECRETS = ['sk-live-51Hd8a3f9c2e7b', 'correct horse battery staple', "Hunter2!Secret~(x)'*"];

  it.each(SECRETS)('%s: thrown, logged, reported and returned by the tool, in any encoding', async (secret) => {
    const pinoOut = pinoLogger('debug');
    const consoleOut = consoleLogger();
    const fanOut: ToolwrightLogger = {
      debug: (fields, message) => (pinoOut.logger.debug(fields, message), consoleOut.logger.debug(fields, message)),
      info: (fields, message) => (pinoOut.logger.info(fields, message), consoleOut.logger.info(fields, message)),
      warn: (fields, message) => (pinoOut.logger.warn(fields, message), consoleOut.logger.warn(fields, message)),
      error: (fields, message) => (pinoOut.logger.error(fields, message), consoleOut.logger.error(fields, message)),
    };
    const toolkit = new Toolkit({ container: new Container(), logger: fanOut });
    toolkit.registerTool(leakyTool(), { presets: { fetch_api: { key: secret } } });
    const results = [
      await toolkit.callTool({ id: 'c1', name: 'fetch_api', arguments: { exit: 'throw' } }, { onProgress: () => { throw new Error('ui broke'); } }),
      await toolkit.callTool({ id: 'c2', name: 'fetch_api', arguments: { exit: 'return' } }),
      // the model sends the preset itself (rejected), and a guess at it
      await toolkit.callTool({ id: 'c3', name: 'fetch_api', arguments: { exit: 'return', key: secret } }),
    ];
    expect(results.map((r) => r.error?.code)).toEqual(['EXECUTION_FAILED', undefined, 'INVALID_ARGUMENTS']);
    expect(pinoOut.lines().length).toBeGreaterThan(5);
    expect(pinoOut.lines()).toContainEqual(expect.objectContaining({ event: 'call_log', level: PINO_LEVEL.error }));
    expect(findLeaks(pinoOut.text(), [secret])).toEqual([]);
    expect(findLeaks(consoleOut.text(), [secret])).toEqual([]);
  });
});
