import 'reflect-metadata';
import { Container, inject, injectable } from 'inversify';
import { fromContainer, Tool, ToolExecutionContext, Toolkit, ToolkitError, ToolParam, toolwrightModule, type ToolwrightModuleOptions } from '../../src';
import { eventsText, recordEvents } from '../support/events';
import { toolCall } from '../support/toolkit';

const SECRET = 'sk-live-0f9e8d7c6b5a';
const API_KEY = Symbol('ApiKey');

@injectable()
class WeatherApi {
  readonly instance = Math.random();
  forecast(city: string): string {
    return `sunny in ${city}`;
  }
}

class UserContext {
  constructor(readonly userId: string) {}
}

@injectable()
class WeatherService {
  constructor(@inject(WeatherApi) private readonly api: WeatherApi) {}

  @Tool({ description: 'Weather for a city' })
  getWeather(@ToolParam({ name: 'city' }) city: string): string {
    return `${this.api.forecast(city)} (api ${this.api.instance})`;
  }

  @Tool({ description: 'Who asks', group: 'account' })
  whoami(user: UserContext): string {
    return user.userId;
  }
}

@injectable()
class MailService {
  @Tool({ description: 'Sends a mail', group: 'admin' })
  sendMail(@ToolParam({ name: 'to' }) to: string, @ToolParam({ name: 'apiKey' }) apiKey: string): string {
    return `sent to ${to} with a key of ${apiKey.length} characters`;
  }
}

async function loaded(options: ToolwrightModuleOptions, prepare: (container: Container) => void = () => {}): Promise<{ container: Container; toolkit: Toolkit }> {
  const container = new Container();
  container.bind(WeatherApi).toSelf().inSingletonScope();
  prepare(container);
  await container.load(toolwrightModule(options));
  return { container, toolkit: container.get(Toolkit) };
}

describe('toolwrightModule (Inversify)', () => {
  it('binds Toolkit as a singleton and registers the services with constructor injection from the loading container', async () => {
    const { container, toolkit } = await loaded({ services: [WeatherService] });
    expect(container.get(Toolkit)).toBe(toolkit);
    expect(toolkit.getAllTools().map((t) => t.name)).toEqual(['get_weather', 'whoami']);
    const result = await toolkit.callTool(toolCall('get_weather', { city: 'Paris' }));
    expect(result.forLLM).toBe(`sunny in Paris (api ${container.get(WeatherApi).instance})`);
    expect(container.get(WeatherService)).toBe(container.get(WeatherService));
  });

  it('keeps a binding the user made for a service (here a constant instance)', async () => {
    const mine = new WeatherService({ forecast: () => 'mine', instance: 0 } as WeatherApi);
    const { toolkit } = await loaded({ services: [WeatherService] }, (c) => c.bind(WeatherService).toConstantValue(mine));
    expect((await toolkit.callTool(toolCall('get_weather', { city: 'x' }))).forLLM).toBe('mine (api 0)');
  });

  it('creates the groups before registering: an inactive group is off in the toolkit and its sessions, and a model cannot call into it', async () => {
    const { toolkit } = await loaded({
      services: [WeatherService, MailService],
      groups: [{ name: 'admin', description: 'Admin tools', active: false }, { name: 'account' }],
      presets: { send_mail: { apiKey: SECRET } },
    });
    expect(toolkit.getToolGroups()).toEqual([
      { name: 'admin', description: 'Admin tools', active: false },
      { name: 'account', description: '', active: true },
    ]);
    const session = toolkit.session('s-1');
    expect(session.getActiveTools().map((t) => t.name)).toEqual(['get_weather', 'whoami']);
    const refused = await session.callTool(toolCall('send_mail', { to: 'a@b.c' }));
    expect(refused.isError).toBe(true);
    session.updateToolGroups(['admin'], true);
    expect((await session.callTool(toolCall('send_mail', { to: 'a@b.c' }))).forLLM).toBe(`sent to a@b.c with a key of ${SECRET.length} characters`);
    expect(toolkit.getActiveTools().map((t) => t.name)).not.toContain('send_mail');
  });

  it('hides presets from every schema, refuses a model that sets one, and never lets the value out', async () => {
    const { toolkit } = await loaded({ services: [MailService], presets: { send_mail: { apiKey: SECRET } } });
    const recording = recordEvents(toolkit);
    const schema = toolkit.getAllTools()[0].parameters;
    expect(Object.keys(schema.properties ?? {})).toEqual(['to']);
    const forged = await toolkit.callTool(toolCall('send_mail', { to: 'a@b.c', apiKey: 'mine' }));
    expect(forged.isError).toBe(true);
    expect(forged.forLLM).toMatch(/apiKey/);
    const ok = await toolkit.callTool(toolCall('send_mail', { to: SECRET }));
    recording.stop();
    const everything = JSON.stringify([toolkit.toProviderDefs('openai', { strict: true }), forged, ok]) + eventsText(recording.events);
    expect(everything).not.toContain(SECRET);
  });

  it('resolves fromContainer presets and context classes from the loading container at call time, bound after the load too', async () => {
    const { container, toolkit } = await loaded({ services: [MailService, WeatherService], presets: { send_mail: { apiKey: fromContainer(API_KEY) } } });
    container.bind(API_KEY).toConstantValue('k-123');
    container.bind(UserContext).toConstantValue(new UserContext('from-container'));
    expect((await toolkit.callTool(toolCall('send_mail', { to: 'x' }))).forLLM).toBe('sent to x with a key of 5 characters');
    expect((await toolkit.callTool(toolCall('whoami', {}))).forLLM).toBe('from-container');
    const context = ToolExecutionContext.of(new UserContext('from-call'));
    expect((await toolkit.callTool(toolCall('whoami', {}), { context })).forLLM).toBe('from-call');
  });

  it('binds a class registered later through the loading container, and unloading the module drops its bindings', async () => {
    @injectable()
    class LaterService {
      constructor(@inject(WeatherApi) private readonly api: WeatherApi) {}
      @Tool({ description: 'Later' })
      later(): string {
        return this.api.forecast('later');
      }
    }
    const module = toolwrightModule({ services: [WeatherService] });
    const container = new Container();
    container.bind(WeatherApi).toSelf();
    await container.load(module);
    const toolkit = container.get(Toolkit);
    toolkit.registerTool(LaterService);
    expect((await toolkit.callTool(toolCall('later', {}))).forLLM).toBe('sunny in later');
    expect(container.isBound(LaterService)).toBe(true);
    await container.unload(module);
    expect([container.isBound(Toolkit), container.isBound(WeatherService), container.isBound(LaterService)]).toEqual([false, false, false]);
  });

  it('takes AgentTool objects and instances beside classes, and the Toolkit options', async () => {
    const echo = { name: 'echo', description: 'Echo', parameters: { type: 'object' as const, properties: { text: { type: 'string' as const } } }, execute: (a: Record<string, unknown>) => String(a.text) };
    const { toolkit } = await loaded({ services: [echo, new MailService()], presets: { send_mail: { apiKey: 'k' } }, maxResultChars: 3 });
    expect(toolkit.getAllTools().map((t) => t.name)).toEqual(['echo', 'send_mail']);
    expect((await toolkit.callTool(toolCall('echo', { text: 'abcdef' }))).forLLM.startsWith('abc')).toBe(true);
  });

  describe('mistakes fail clearly', () => {
    const codeOf = async (run: () => unknown): Promise<string> => {
      try {
        await run();
      } catch (error) {
        expect(ToolkitError.is(error)).toBe(true);
        return `${(error as ToolkitError).code}: ${(error as Error).message}`;
      }
      throw new Error('expected a ToolkitError');
    };

    it('a preset naming a tool no service has fails the first resolution and names the tool', async () => {
      const container = new Container();
      container.bind(WeatherApi).toSelf();
      await container.load(toolwrightModule({ services: [WeatherService], presets: { send_mial: { apiKey: SECRET } } }));
      const message = await codeOf(() => container.get(Toolkit));
      expect(message).toMatch(/send_mial/);
      expect(message).not.toContain(SECRET);
    });

    it('a service whose dependency is not bound is SERVICE_RESOLUTION_FAILED naming the class', async () => {
      const container = new Container();
      await container.load(toolwrightModule({ services: [WeatherService] }));
      expect(await codeOf(() => container.get(Toolkit))).toMatch(/^SERVICE_RESOLUTION_FAILED: WeatherService/);
    });

    it('a container that already binds Toolkit is INVALID_OPTIONS at load', async () => {
      const container = new Container();
      container.bind(Toolkit).toConstantValue(new Toolkit());
      expect(await codeOf(() => container.load(toolwrightModule()))).toMatch(/^INVALID_OPTIONS: The container already binds Toolkit/);
    });

    it('malformed options are INVALID_OPTIONS at once', async () => {
      expect(await codeOf(() => toolwrightModule({ services: [WeatherService, null as never] }))).toMatch(/^INVALID_OPTIONS: toolwrightModule: services\[1\]/);
      expect(await codeOf(() => toolwrightModule({ services: WeatherService as never }))).toMatch(/^INVALID_OPTIONS/);
      expect(await codeOf(() => toolwrightModule({ groups: [{ name: '' }] }))).toMatch(/groups\[0\] needs a name/);
    });
  });
});
