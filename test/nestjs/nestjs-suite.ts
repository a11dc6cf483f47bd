import 'reflect-metadata';
import {
  Body,
  Controller,
  Get,
  Global,
  Headers,
  Inject,
  Injectable,
  Module,
  NotFoundException,
  Param,
  Post,
  Scope,
  type DynamicModule,
  type INestApplicationContext,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  fromContainer,
  Principal,
  Prompt,
  PromptArg,
  Resource,
  ResourceParam,
  runToolLoop,
  ScriptedProvider,
  Tool,
  ToolExecutionContext,
  ToolParam,
  ToolService,
  Toolkit,
  type ToolCall,
  type ToolResult,
} from '../../src';
import { ToolwrightModule, type ToolwrightNestOptions } from '../../src/nestjs';
import { eventsText, recordEvents } from '../support/events';

/**
 * The one suite of `toolwright/nestjs`, run against NestJS 12 (nest12.test.ts) and NestJS 11
 * (nest11.test.ts, where every `@nestjs/*` import is mapped to Nest 11): real Nest application
 * contexts (`NestFactory.createApplicationContext`) and a real HTTP application on 127.0.0.1
 * port 0, called with fetch.
 */

const SECRET = 'sk-nest-mail-7f3a9c21';
const NO_LOGS = { logger: false, abortOnError: false } as const;

@Injectable()
class WeatherApi {
  calls = 0;
  current(city: string, days: number): string {
    this.calls++;
    return `${city}: 18 °C for ${days} day(s)`;
  }
}

/** A tool provider as Nest users write one: @Injectable, constructor injection, no @ToolService. */
@Injectable()
class WeatherTools {
  constructor(private readonly api: WeatherApi) {}

  @Tool({ name: 'get_weather', description: 'The weather of a city' })
  getWeather(
    @ToolParam({ name: 'city', description: 'City name', schema: { minLength: 2 } }) city: string,
    @ToolParam({ name: 'days', integer: true, required: false, schema: { minimum: 1, maximum: 14 } }) days: number | undefined,
  ): string {
    return this.api.current(city, days ?? 1);
  }
}

@Injectable()
class MailTools {
  @Tool({ name: 'send_mail', description: 'Send a mail', group: 'mail' })
  send(@ToolParam({ name: 'to' }) to: string, @ToolParam({ name: 'apiKey' }) apiKey: string): string {
    // echoes the key, so that the test sees it redacted
    return `sent to ${to} with key ${apiKey}`;
  }
}

/** `@ToolService` still gives a default group (Nest ignores its Inversify mark). */
@ToolService({ group: 'admin' })
@Injectable()
class AdminTools {
  @Tool({ name: 'wipe_cache', description: 'Wipe the cache' })
  wipe(): string {
    return 'wiped';
  }
}

class UserContext {
  constructor(readonly id: string) {}
}

@Injectable()
class AccountTools {
  @Tool({ name: 'whoami', description: 'Who is asking' })
  whoami(user: UserContext): string {
    return `you are ${user.id}`;
  }

  @Tool({ name: 'find_order', description: 'Find an order' })
  findOrder(@ToolParam({ name: 'id' }) id: string): string {
    throw new NotFoundException(`order ${id} does not exist`);
  }
}

const ADMIN_OFF: ToolwrightNestOptions = {
  groups: [
    { name: 'admin', description: 'Admin tools', active: false },
    { name: 'mail', description: 'Mail', active: true },
  ],
  presets: { send_mail: { apiKey: SECRET } },
};

function appModule(toolwright: DynamicModule, providers: unknown[], imports: unknown[] = [], controllers: unknown[] = []): new () => object {
  class AppModule {}
  Module({ imports: [toolwright, ...imports] as never[], providers: providers as never[], controllers: controllers as never[] })(AppModule);
  return AppModule;
}

async function start(module: new () => object): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(module, NO_LOGS);
}

/** Runs `body` with a started application context and closes it afterwards. */
async function withApp<T>(module: new () => object, body: (app: INestApplicationContext, toolkit: Toolkit) => Promise<T>): Promise<T> {
  const app = await start(module);
  try {
    return await body(app, app.get(Toolkit));
  } finally {
    await app.close();
  }
}

const call = (name: string, args: unknown, id = `c_${name}`): ToolCall => ({ id, name, arguments: args as ToolCall['arguments'] });

export function describeNestSuite(label: string, major: number): void {
  describe(`toolwright/nestjs on ${label}`, () => {
    it(`runs on NestJS ${major}`, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      expect((require('@nestjs/core/package.json') as { version: string }).version.split('.')[0]).toBe(String(major));
    });

    it("registers @Tool methods on Nest's own instances, with Nest's constructor injection; Toolkit is injectable anywhere", async () => {
      @Injectable()
      class Consumer {
        constructor(readonly toolkit: Toolkit) {}
      }
      const module = appModule(ToolwrightModule.forRoot(ADMIN_OFF), [WeatherApi, WeatherTools, MailTools, AdminTools, Consumer]);
      await withApp(module, async (app, toolkit) => {
        expect(app.get(Consumer).toolkit).toBe(toolkit);
        expect(toolkit.getAllTools().map((t) => t.name).sort()).toEqual(['get_weather', 'send_mail', 'wipe_cache']);
        const result = await toolkit.callTool(call('get_weather', '{"city":"Paris","days":3}'));
        expect(result).toMatchObject({ isError: false, forLLM: 'Paris: 18 °C for 3 day(s)' });
        // the instance Nest made (and injected WeatherApi into) is the one the tool ran on
        expect(app.get(WeatherApi).calls).toBe(1);
      });
    });

    it("registers the resources and prompts of Nest's providers with their tools, in their groups (a provider with none of its own tools too)", async () => {
      @Injectable()
      class DocsProvider {
        constructor(private readonly api: WeatherApi) {}

        @Resource({ uriTemplate: 'forecast://{city}', name: 'forecast', group: 'admin' })
        forecast(@ResourceParam('city') city: string): string {
          return this.api.current(city, 2);
        }

        @Prompt({ name: 'brief', description: 'A weather briefing' })
        brief(@PromptArg('city') city: string): string {
          return `Brief me on the weather in ${city}.`;
        }
      }
      const module = appModule(ToolwrightModule.forRoot({ groups: ADMIN_OFF.groups }), [WeatherApi, DocsProvider]);
      await withApp(module, async (app, toolkit) => {
        expect(toolkit.getAllTools()).toEqual([]);
        expect(toolkit.prompts.list().map((p) => p.name)).toEqual(['brief']);
        expect(toolkit.resources.templates()).toEqual([]); // its group is off
        const operator = toolkit.session('operator');
        operator.updateToolGroups(['admin'], true);
        expect((await operator.resources.read('forecast://Oslo')).contents).toEqual([{ uri: 'forecast://Oslo', text: 'Oslo: 18 °C for 2 day(s)' }]);
        expect(app.get(WeatherApi).calls).toBe(1);
        expect((await toolkit.prompts.get('brief', { city: 'Oslo' })).messages[0]?.content).toEqual({ type: 'text', text: 'Brief me on the weather in Oslo.' });
      });
    });

    it("a model-driven loop: an invalid call gets toolwright's field-by-field message and the repaired call runs", async () => {
      const module = appModule(ToolwrightModule.forRoot(ADMIN_OFF), [WeatherApi, WeatherTools, MailTools, AdminTools]);
      await withApp(module, async (_app, toolkit) => {
        let feedback = '';
        const provider = new ScriptedProvider([
          ScriptedProvider.toolCall('get_weather', { city: 'P', days: 30 }),
          (request) => {
            feedback = request.messages.at(-1)?.content ?? '';
            return { content: '', toolCalls: [{ id: 'c2', name: 'get_weather', arguments: '{"city":"Paris","days":3}' }] };
          },
          ScriptedProvider.reply('Mild in Paris.'),
        ]);
        const outcome = await runToolLoop({ provider, model: 'scripted', toolkit: toolkit.session('loop') }, [{ role: 'user', content: 'Weather in Paris?' }]);
        expect(feedback).toContain("Invalid arguments for tool 'get_weather'");
        expect(feedback).toContain("'city': must NOT have fewer than 2 characters");
        expect(feedback).toContain("'days': must be <= 14 (got 30)");
        expect(outcome.content).toBe('Mild in Paris.');
        expect(outcome.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([feedback, 'Paris: 18 °C for 3 day(s)']);
        // the model was offered the active tools only, without the preset parameter
        const offered = provider.requests[0]!.tools;
        expect(offered.map((t) => t.name).sort()).toEqual(['get_weather', 'send_mail']);
        expect(JSON.stringify(offered)).not.toContain('apiKey');
      });
    });

    it('a preset stays out of schemas and definitions, and its value never reaches results, errors or events', async () => {
      const module = appModule(ToolwrightModule.forRoot(ADMIN_OFF), [MailTools]);
      await withApp(module, async (_app, toolkit) => {
        const recording = recordEvents(toolkit);
        expect(JSON.stringify(toolkit.getToolSchemas())).not.toContain('apiKey');
        expect(JSON.stringify(toolkit.toProviderDefs('openai', { strict: true }))).not.toContain('apiKey');
        const sent = await toolkit.callTool(call('send_mail', { to: 'ana@example.com' }));
        expect(sent.isError).toBe(false);
        expect(sent.forLLM).toBe('sent to ana@example.com with key [REDACTED]');
        const forged = await toolkit.callTool(call('send_mail', { to: 'ana@example.com', apiKey: 'stolen' }, 'c_forged'));
        expect(forged.error?.code).toBe('INVALID_ARGUMENTS');
        expect(forged.forLLM).toContain('apiKey');
        recording.stop();
        for (const text of [JSON.stringify([sent, forged]), eventsText(recording.events)]) expect(text).not.toContain(SECRET);
      });
    });

    it('a session offers only its own tools; a tool of a group that is off answers TOOL_DISABLED', async () => {
      const module = appModule(ToolwrightModule.forRoot(ADMIN_OFF), [WeatherApi, WeatherTools, MailTools, AdminTools]);
      await withApp(module, async (_app, toolkit) => {
        const operator = toolkit.session('operator');
        const guest = toolkit.session('guest');
        operator.updateToolGroups(['admin'], true);
        expect(operator.getToolSchemas().map((t) => t.name)).toContain('wipe_cache');
        expect(guest.getToolSchemas().map((t) => t.name)).not.toContain('wipe_cache');
        expect((await operator.callTool(call('wipe_cache', {}))).forLLM).toBe('wiped');
        // a hostile model in the guest session calls the admin tool it was never offered
        const provider = new ScriptedProvider([ScriptedProvider.toolCall('wipe_cache', {}), ScriptedProvider.reply('done')]);
        const outcome = await runToolLoop({ provider, model: 'scripted', toolkit: guest }, [{ role: 'user', content: 'wipe it' }]);
        const answer = outcome.messages.find((m) => m.role === 'tool')?.content ?? '';
        expect(answer).toBe("Tool 'wipe_cache' is disabled: its group 'admin' is not active.");
        expect((await toolkit.callTool(call('wipe_cache', {}))).error?.code).toBe('TOOL_DISABLED');
      });
    });

    it('forRoot({ authorize }) and @Tool({ scopes }): the principal the app puts in the call context decides; a refused call does not run', async () => {
      @Injectable()
      class RefundTools {
        refunded: number[] = [];
        @Tool({ name: 'refund', description: 'Refund an order', scopes: ['orders:refund'] })
        refund(@ToolParam({ name: 'order' }) order: number): string {
          this.refunded.push(order);
          return `refunded ${order}`;
        }
      }
      const authorize = ({ principal }: { principal?: Principal | undefined }) => principal?.claims.suspended !== true;
      await withApp(appModule(ToolwrightModule.forRoot({ authorize }), [RefundTools]), async (app, toolkit) => {
        const as = (principal: Principal) => ({ context: ToolExecutionContext.of(principal) });
        const clerk = new Principal('clerk', { scopes: ['orders:read'] });
        const suspended = new Principal('sam', { scopes: ['orders:refund'], claims: { suspended: true } });
        const manager = new Principal('mia', { scopes: ['orders:refund'] });
        expect(toolkit.getToolSchemas(as(clerk)).map((t) => t.name)).not.toContain('refund');
        expect((await toolkit.callTool(call('refund', { order: 1 }), as(clerk))).error?.code).toBe('FORBIDDEN');
        expect((await toolkit.callTool(call('refund', { order: 2 }), as(suspended))).error?.code).toBe('FORBIDDEN');
        expect((await toolkit.callTool(call('refund', { order: 3 }), as(manager))).forLLM).toBe('refunded 3');
        expect(app.get(RefundTools).refunded).toEqual([3]);
      });
    });

    it('forRootAsync: options from an injected configuration provider (presets read from it at call time)', async () => {
      @Injectable()
      class ConfigService {
        reads = 0;
        get(key: string): string | undefined {
          this.reads++;
          return ({ MAIL_API_KEY: SECRET, ADMIN_TOOLS: 'on' } as Record<string, string>)[key];
        }
      }
      @Module({ providers: [ConfigService], exports: [ConfigService] })
      class ConfigModule {}
      const toolwright = ToolwrightModule.forRootAsync({
        imports: [ConfigModule],
        inject: [ConfigService],
        useFactory: async (config: ConfigService) => ({
          groups: [{ name: 'admin', description: 'Admin tools', active: config.get('ADMIN_TOOLS') === 'on' }],
          presets: { send_mail: { apiKey: () => config.get('MAIL_API_KEY') } },
        }),
      });
      await withApp(appModule(toolwright, [MailTools, AdminTools]), async (app, toolkit) => {
        expect(toolkit.getToolSchemas().map((t) => t.name).sort()).toEqual(['send_mail', 'wipe_cache']);
        const reads = app.get(ConfigService).reads;
        const sent = await toolkit.callTool(call('send_mail', { to: 'bo@example.com' }));
        expect(sent.forLLM).toBe('sent to bo@example.com with key [REDACTED]');
        expect(app.get(ConfigService).reads).toBe(reads + 1);
      });
    });

    it('fromContainer(token) presets resolve in the Nest application at call time', async () => {
      @Module({ providers: [{ provide: 'MAIL_API_KEY', useFactory: () => SECRET }], exports: ['MAIL_API_KEY'] })
      class SecretsModule {}
      const toolwright = ToolwrightModule.forRoot({ presets: { send_mail: { apiKey: fromContainer('MAIL_API_KEY') } } });
      await withApp(appModule(toolwright, [MailTools], [SecretsModule]), async (_app, toolkit) => {
        const sent = await toolkit.callTool(call('send_mail', { to: 'cy@example.com' }));
        expect(sent).toMatchObject({ isError: false, forLLM: 'sent to cy@example.com with key [REDACTED]' });
      });
    });

    it("the toolkit's tools are registered before any onApplicationBootstrap, and before onModuleInit of non-global modules", async () => {
      const seen: Record<string, string[]> = {};
      @Injectable()
      class Warmup implements OnModuleInit, OnApplicationBootstrap {
        constructor(private readonly toolkit: Toolkit) {}
        onModuleInit(): void {
          seen.init = this.toolkit.getAllTools().map((t) => t.name);
        }
        async onApplicationBootstrap(): Promise<void> {
          seen.bootstrap = [(await this.toolkit.callTool(call('get_weather', { city: 'Oslo' }))).forLLM];
        }
      }
      @Module({ providers: [WeatherApi, WeatherTools, Warmup] })
      class FeatureModule {}
      await withApp(appModule(ToolwrightModule.forRoot(), [], [FeatureModule]), async () => {
        expect(seen).toEqual({ init: ['get_weather'], bootstrap: ['Oslo: 18 °C for 1 day(s)'] });
      });
    });

    it('finds singleton controllers, inherited @Tool methods, value and factory providers; an alias is the instance it names', async () => {
      class BaseTools {
        @Tool({ name: 'ping', description: 'Ping' })
        ping(): string {
          return 'pong';
        }
      }
      @Injectable()
      class DerivedTools extends BaseTools {}
      @Controller('tools')
      class StatusController {
        @Tool({ name: 'status', description: 'Service status' })
        status(): string {
          return 'up';
        }
      }
      class Clock {
        @Tool({ name: 'now', description: 'The time' })
        now(): string {
          return 'noon';
        }
      }
      class Dice {
        @Tool({ name: 'roll', description: 'Roll a die' })
        roll(): string {
          return '4';
        }
      }
      const providers = [DerivedTools, { provide: 'CLOCK', useValue: new Clock() }, { provide: Dice, useFactory: () => new Dice() }, { provide: 'DICE', useExisting: Dice }];
      await withApp(appModule(ToolwrightModule.forRoot(), providers, [], [StatusController]), async (_app, toolkit) => {
        expect(toolkit.getAllTools().map((t) => t.name).sort()).toEqual(['now', 'ping', 'roll', 'status']);
        expect((await toolkit.callTool(call('ping', {}))).forLLM).toBe('pong');
      });
    });

    describe('fails at start with a clear error', () => {
      @Injectable({ scope: Scope.REQUEST })
      class RequestTools {
        @Tool({ name: 'per_request', description: 'Per request' })
        run(): string {
          return 'x';
        }
      }

      it('a request-scoped provider with @Tool methods: INVALID_DEFINITION naming the class, why and the fix', async () => {
        await expect(start(appModule(ToolwrightModule.forRoot(), [RequestTools]))).rejects.toMatchObject({
          code: 'INVALID_DEFINITION',
          message: expect.stringMatching(/RequestTools \(in AppModule\) has @Tool methods \(run\) but is request-scoped \(Scope\.REQUEST\)[\s\S]*Make it a singleton/),
        });
      });

      it('a transient provider, a request-scoped controller, and a provider request-scoped through its dependencies (the path is named)', async () => {
        @Injectable({ scope: Scope.TRANSIENT })
        class TransientTools {
          @Tool({ name: 'transient', description: 'Transient' })
          run(): string {
            return 'x';
          }
        }
        @Injectable({ scope: Scope.REQUEST })
        class RequestUser {}
        @Injectable()
        class Audit {
          constructor(readonly user: RequestUser) {}
        }
        @Injectable()
        class ReportTools {
          constructor(readonly audit: Audit) {}
          @Tool({ name: 'report', description: 'Report' })
          report(): string {
            return 'r';
          }
        }
        @Controller({ path: 'per-request', scope: Scope.REQUEST })
        class PerRequestController {
          @Tool({ name: 'per_request_status', description: 'Status' })
          status(): string {
            return 'ok';
          }
        }
        const failure = start(appModule(ToolwrightModule.forRoot(), [TransientTools, RequestUser, Audit, ReportTools], [], [PerRequestController]));
        await expect(failure).rejects.toMatchObject({ code: 'INVALID_DEFINITION' });
        const message = ((await failure.catch((e: unknown) => e)) as Error).message;
        expect(message).toContain('TransientTools (in AppModule) has @Tool methods (run) but is transient (Scope.TRANSIENT)');
        expect(message).toContain('ReportTools (in AppModule) has @Tool methods (report) but is request-scoped because it depends on Audit → RequestUser, which is request-scoped');
        expect(message).toContain('PerRequestController (in AppModule) has @Tool methods (status) but is request-scoped (Scope.REQUEST)');
        expect(message.match(/Make it a singleton/g)).toHaveLength(1);
      });

      it('a request-scoped factory provider cannot be seen into: the app starts and its tools are not registered (the NestJS page says so)', async () => {
        const module = appModule(ToolwrightModule.forRoot(), [{ provide: 'PER_REQUEST', scope: Scope.REQUEST, useFactory: () => new RequestTools() }]);
        await withApp(module, async (_app, toolkit) => {
          expect(toolkit.getAllTools()).toEqual([]);
        });
      });

      it('two providers defining one tool name: DUPLICATE_TOOL naming both', async () => {
        @Injectable()
        class OtherWeather {
          @Tool({ name: 'get_weather', description: 'Another weather' })
          weather(): string {
            return 'rain';
          }
        }
        await expect(start(appModule(ToolwrightModule.forRoot(), [WeatherApi, WeatherTools, OtherWeather]))).rejects.toMatchObject({
          code: 'DUPLICATE_TOOL',
          message: expect.stringMatching(/get_weather[\s\S]*(WeatherTools\.getWeather[\s\S]*OtherWeather\.weather|OtherWeather\.weather[\s\S]*WeatherTools\.getWeather)/),
        });
      });

      it('one tool class provided by two modules (two instances): INVALID_DEFINITION naming both modules', async () => {
        @Module({ providers: [AdminTools] })
        class FirstModule {}
        @Module({ providers: [AdminTools] })
        class SecondModule {}
        await expect(start(appModule(ToolwrightModule.forRoot(), [], [FirstModule, SecondModule]))).rejects.toMatchObject({
          code: 'INVALID_DEFINITION',
          message: expect.stringContaining('AdminTools has @Tool methods and 2 instances: it is provided by FirstModule, SecondModule'),
        });
      });

      it('presets naming a tool no provider has: INVALID_DEFINITION listing what was discovered', async () => {
        const toolwright = ToolwrightModule.forRoot({ presets: { send_email: { apiKey: SECRET } } });
        const failure = start(appModule(toolwright, [MailTools]));
        await expect(failure).rejects.toMatchObject({ code: 'INVALID_DEFINITION', message: expect.stringContaining("'send_email'") });
        expect(((await failure.catch((e: unknown) => e)) as Error).message).not.toContain(SECRET);
      });

      it('malformed options: INVALID_OPTIONS from forRoot at once, from forRootAsync at start', async () => {
        expect(() => ToolwrightModule.forRoot({ groups: [{ name: '' }] })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
        expect(() => ToolwrightModule.forRoot({ services: [MailTools] } as ToolwrightNestOptions)).toThrow(/there is no services option/);
        expect(() => ToolwrightModule.forRootAsync({} as never)).toThrow(/useFactory must be a function/);
        const toolwright = ToolwrightModule.forRootAsync({ useFactory: () => ({ presets: 'nope' }) as never });
        await expect(start(appModule(toolwright, []))).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('presets must map') });
      });

      it("a tool provider whose constructor throws: Nest's error, and nothing starts", async () => {
        @Injectable()
        class Exploding {
          constructor() {
            throw new Error('the mail server is unreachable');
          }
          @Tool({ name: 'explode', description: 'Explode' })
          run(): string {
            return 'x';
          }
        }
        await expect(start(appModule(ToolwrightModule.forRoot(), [Exploding]))).rejects.toThrow('the mail server is unreachable');
      });
    });

    it("user callbacks cannot crash the app: a throwing hook fails the call (HOOK_FAILED), a throwing subscriber becomes an event; a Nest exception thrown by a tool is the tool's error result", async () => {
      @Injectable()
      class Installer implements OnApplicationBootstrap {
        constructor(private readonly toolkit: Toolkit) {}
        onApplicationBootstrap(): void {
          this.toolkit.use({
            name: 'audit',
            before: (ctx) => {
              if (ctx.call.name === 'wipe_cache') throw new Error('audit log is down');
            },
          });
        }
      }
      await withApp(appModule(ToolwrightModule.forRoot(), [AdminTools, AccountTools, Installer]), async (_app, toolkit) => {
        const failures: string[] = [];
        const watcher = toolkit.events$.subscribe((e) => {
          if (e.type === 'callback_failed') failures.push(e.type);
        });
        const hostile = toolkit.events$.subscribe(() => {
          throw new Error('subscriber bug');
        });
        const hooked = await toolkit.callTool(call('wipe_cache', {}));
        expect(hooked.error?.code).toBe('HOOK_FAILED');
        const notFound = await toolkit.callTool(call('find_order', { id: '42' }));
        expect(notFound).toMatchObject({ isError: true, error: { code: 'EXECUTION_FAILED' } });
        expect(notFound.forLLM).toContain('order 42 does not exist');
        expect(failures.length).toBeGreaterThan(0);
        hostile.unsubscribe();
        watcher.unsubscribe();
      });
    });

    it('shutdown closes the sessions: calls through them answer SESSION_CLOSED', async () => {
      const app = await start(appModule(ToolwrightModule.forRoot(), [WeatherApi, WeatherTools]));
      const toolkit = app.get(Toolkit);
      const session = toolkit.session('chat-1');
      expect((await session.callTool(call('get_weather', { city: 'Rome' }))).isError).toBe(false);
      await app.close();
      expect(session.closed).toBe(true);
      expect(toolkit.getSessionIds()).toEqual([]);
      expect((await session.callTool(call('get_weather', { city: 'Rome' }))).error?.code).toBe('SESSION_CLOSED');
    });

    describe('over HTTP: per-request context and per-session groups in a controller', () => {
      @Global()
      @Module({ providers: [{ provide: 'OPERATORS', useValue: new Set(['ops-1']) }], exports: ['OPERATORS'] })
      class AuthModule {}

      @Controller('chats')
      class ChatController {
        constructor(
          private readonly toolkit: Toolkit,
          @Inject('OPERATORS') private readonly operators: Set<string>,
        ) {}

        /** The model's tool call for one chat, run as the user the request authenticates. */
        @Post(':chat/calls')
        run(@Param('chat') chat: string, @Headers('x-user') user: string | undefined, @Body() body: ToolCall): Promise<ToolResult> {
          const context = user !== undefined ? ToolExecutionContext.of(new UserContext(user)) : undefined;
          const session = this.toolkit.session(chat);
          if (user !== undefined && this.operators.has(user)) session.updateToolGroups(['admin'], true);
          return session.callTool(body, { context });
        }

        @Get(':chat/tools')
        tools(@Param('chat') chat: string): string[] {
          return this.toolkit.session(chat).getToolSchemas().map((t) => t.name);
        }
      }

      it('each request gets its own user; each chat its own groups; faults come back as results', async () => {
        const module = appModule(ToolwrightModule.forRoot(ADMIN_OFF), [AccountTools, AdminTools, MailTools], [AuthModule], [ChatController]);
        // forceCloseConnections: close() ends fetch's keep-alive connections instead of waiting for them
        const app = await NestFactory.create(module, { ...NO_LOGS, forceCloseConnections: true });
        try {
          await app.listen(0, '127.0.0.1');
          const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
          const post = async (chat: string, body: unknown, user?: string): Promise<ToolResult> => {
            const response = await fetch(`${base}/chats/${chat}/calls`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...(user !== undefined ? { 'x-user': user } : {}) },
              body: JSON.stringify(body),
            });
            expect(response.status).toBe(201);
            return (await response.json()) as ToolResult;
          };
          const [ana, bo] = await Promise.all([post('a', call('whoami', {}), 'ana'), post('b', call('whoami', {}), 'bo')]);
          expect([ana.forLLM, bo.forLLM]).toEqual(['you are ana', 'you are bo']);
          expect((await post('a', call('whoami', {}))).error?.code).toBe('CONTEXT_MISSING');
          expect((await post('a', call('find_order', { id: 7 }))).error?.code).toBe('INVALID_ARGUMENTS');
          expect((await post('a', call('wipe_cache', {}), 'ana')).error?.code).toBe('TOOL_DISABLED');
          expect((await post('ops', call('wipe_cache', {}), 'ops-1')).forLLM).toBe('wiped');
          const tools = async (chat: string): Promise<string[]> => (await (await fetch(`${base}/chats/${chat}/tools`)).json()) as string[];
          expect(await tools('ops')).toContain('wipe_cache');
          expect(await tools('a')).not.toContain('wipe_cache');
        } finally {
          await app.close();
        }
      });
    });
  });
}
