import 'reflect-metadata';
import {
  Body,
  Controller,
  Get,
  Injectable,
  Module,
  Param,
  Post,
  UseGuards,
  type CanActivate,
  type DynamicModule,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApprovalManager, isPendingApprovalResult, Principal, Tool, ToolExecutionContext, ToolParam, Toolkit, type ToolCall, type ToolResult } from '../../src';
import { ToolwrightModule, type NestPrincipalSource, type ToolwrightNestOptions } from '../../src/nestjs';

/**
 * `ToolwrightModule.forRoot({ principal })` in a real Nest HTTP application on 127.0.0.1 port 0,
 * called with fetch: a guard puts the user on the request, the callback turns it into the
 * caller, and every list and call the injected Toolkit makes while the request is handled is
 * made as that caller.
 */

const NO_LOGS = { logger: false, abortOnError: false, forceCloseConnections: true } as const;

interface User {
  readonly sub: string;
  readonly scopes: readonly string[];
}

const USERS: Readonly<Record<string, User>> = {
  ann: { sub: 'ann', scopes: ['reports:read'] },
  guest: { sub: 'guest', scopes: [] },
};

/** Passport-like: the bearer names the user; an unknown bearer leaves the request anonymous. */
@Injectable()
class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; user?: User }>();
    const bearer = /^Bearer (\w+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer !== undefined && USERS[bearer] !== undefined) request.user = USERS[bearer];
    return true;
  }
}

@Injectable()
class ReportTools {
  readonly runs: string[] = [];
  @Tool({ name: 'read_report', description: 'Reads a report', scopes: ['reports:read'] })
  async read(@ToolParam({ name: 'id' }) id: string, caller: Principal): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.runs.push(`${caller.id}:${id}`);
    return `report ${id} for ${caller.id}`;
  }
  @Tool({ name: 'get_time', description: 'The time' })
  time(): string {
    this.runs.push('time');
    return 'noon';
  }
}

let handled = 0;

@Controller()
@UseGuards(BearerGuard)
class ToolsController {
  constructor(private readonly toolkit: Toolkit) {}
  @Get('tools')
  tools(): string[] {
    handled++;
    return this.toolkit.getActiveTools().map((tool) => tool.name);
  }
  @Get('chats/:chat/schemas')
  async schemas(@Param('chat') chat: string): Promise<string[]> {
    handled++;
    return (await this.toolkit.session(chat).getVisibleTools()).map((tool) => tool.name);
  }
  @Post('calls')
  call(@Body() call: ToolCall): Promise<ToolResult> {
    handled++;
    return this.toolkit.callTool(call);
  }
  @Post('chats/:chat/calls')
  callInSession(@Param('chat') chat: string, @Body() call: ToolCall): Promise<ToolResult> {
    handled++;
    return this.toolkit.session(chat).callTools([call]).then(([result]) => result!);
  }
  @Post('calls-as-service')
  callAsService(@Body() call: ToolCall): Promise<ToolResult> {
    handled++;
    // code that names its caller itself wins over the request's
    return this.toolkit.callTool(call, { context: ToolExecutionContext.of(new Principal('report-bot', { scopes: ['reports:read'] })) });
  }
}

const fromUser: NestPrincipalSource = async (request: { user?: User; headers: Record<string, string | undefined> }) => {
  if (request.headers['x-fail'] === 'throw') throw new Error('token store unreachable: secret-token-123');
  if (request.headers['x-fail'] === 'plain') return { id: 'ann', scopes: ['reports:read'] } as unknown as Principal;
  return request.user && new Principal(request.user.sub, { scopes: request.user.scopes });
};

@Injectable()
class WhoTools {
  @Tool({ name: 'whoami', description: 'Who runs this' })
  whoami(context: ToolExecutionContext): string {
    return context.get(Principal)?.id ?? 'nobody';
  }
}

@Controller('approvals')
@UseGuards(BearerGuard)
class ApprovalsController {
  constructor(private readonly approvals: ApprovalManager) {}
  @Post(':id')
  approve(@Param('id') id: string): Promise<ToolResult> {
    return this.approvals.approve(id);
  }
}

const approvalsProvider = {
  provide: ApprovalManager,
  inject: [Toolkit],
  useFactory: (toolkit: Toolkit) => {
    const approvals = new ApprovalManager({ tools: ['whoami', 'read_report'] });
    toolkit.use(approvals.hook);
    return approvals;
  },
};

function appModule(toolwright: DynamicModule, withApprovals = false): new () => unknown {
  const providers = withApprovals ? [ReportTools, WhoTools, BearerGuard, approvalsProvider] : [ReportTools, BearerGuard];
  const controllers = withApprovals ? [ToolsController, ApprovalsController] : [ToolsController];
  @Module({ imports: [toolwright], providers, controllers })
  class AppModule {}
  return AppModule;
}

interface Client {
  readonly app: INestApplication;
  get(path: string, user?: string, headers?: Record<string, string>): Promise<{ status: number; body: unknown }>;
  post(path: string, body: unknown, user?: string, headers?: Record<string, string>): Promise<{ status: number; body: unknown }>;
}

async function start(toolwright: DynamicModule, withApprovals = false): Promise<Client> {
  const app = await NestFactory.create(appModule(toolwright, withApprovals), NO_LOGS);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const send = async (method: string, path: string, body: unknown, user: string | undefined, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(user !== undefined ? { authorization: `Bearer ${user}` } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: await response.json() };
  };
  return { app, get: (path, user, headers) => send('GET', path, undefined, user, headers), post: (path, body, user, headers) => send('POST', path, body, user, headers) };
}

const call = (name: string, args: object, id = 'c1'): ToolCall => ({ id, name, arguments: JSON.stringify(args) });

/** The suite, run against NestJS 12 (nest12.test.ts) and NestJS 11 (nest11.test.ts). */
export function describeRequestPrincipal(label: string): void {
  describe(`${label}: the caller of each request`, () => {
    describe('ToolwrightModule.forRoot({ principal }): the caller comes from the request', () => {
      let client: Client;
      let tools: ReportTools;
      beforeEach(async () => {
        handled = 0;
        client = await start(ToolwrightModule.forRoot({ principal: fromUser }));
        tools = client.app.get(ReportTools);
      });
      afterEach(async () => {
        await client.app.close();
      });

      it('a caller without the scope does not see the tool and is refused FORBIDDEN; nothing runs', async () => {
        for (const user of ['guest', undefined]) {
          expect((await client.get('tools', user)).body).toEqual(['get_time']);
          expect((await client.get('chats/c1/schemas', user)).body).toEqual(['get_time']);
          const direct = (await client.post('calls', call('read_report', { id: 'q3' }), user)).body as ToolResult;
          expect(direct.error?.code).toBe('FORBIDDEN');
          expect(direct.forLLM).toContain("requires scope 'reports:read'");
          const inSession = (await client.post('chats/c1/calls', call('read_report', { id: 'q3' }), user)).body as ToolResult;
          expect(inSession.error?.code).toBe('FORBIDDEN');
        }
        expect(tools.runs).toEqual([]);
        expect(((await client.post('calls', call('get_time', {}), 'guest')).body as ToolResult).forLLM).toBe('noon');
      });

      it('the holder of the scope sees and runs it, as itself; code that names a caller itself wins', async () => {
        expect((await client.get('tools', 'ann')).body).toEqual(['read_report', 'get_time']);
        expect(((await client.post('calls', call('read_report', { id: 'q3' }), 'ann')).body as ToolResult).forLLM).toBe('report q3 for ann');
        expect(((await client.post('calls-as-service', call('read_report', { id: 'q4' }), 'guest')).body as ToolResult).forLLM).toBe('report q4 for report-bot');
        expect(tools.runs).toEqual(['ann:q3', 'report-bot:q4']);
      });

      it('concurrent requests of different callers never see each other’s principal', async () => {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => client.post('calls', call('read_report', { id: `r${i}` }, `c${i}`), i % 2 === 0 ? 'ann' : 'guest')),
        );
        results.forEach(({ body }, i) => {
          const result = body as ToolResult;
          if (i % 2 === 0) expect(result.forLLM).toBe(`report r${i} for ann`);
          else expect(result.error?.code).toBe('FORBIDDEN');
        });
        expect(tools.runs.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `ann:r${i * 2}`).sort());
      });

      it('a throwing callback refuses the request with a 403 naming the cause, before the handler runs; no secret leaks', async () => {
        const refused = await client.post('calls', call('get_time', {}), 'ann', { 'x-fail': 'throw' });
        expect(refused.status).toBe(403);
        const text = JSON.stringify(refused.body);
        expect(text).toContain('the principal callback threw (Error), so the request was refused before its handler ran');
        expect(text).not.toContain('secret-token-123');
        expect(handled).toBe(0);
        expect(tools.runs).toEqual([]);
      });

      it('a callback returning something else than a Principal refuses the request with the fix', async () => {
        const refused = await client.post('calls', call('read_report', { id: 'q3' }), 'ann', { 'x-fail': 'plain' });
        expect(refused.status).toBe(403);
        expect(JSON.stringify(refused.body)).toContain('returned object instead of a Principal or undefined');
        expect(JSON.stringify(refused.body)).toContain('new Principal(id, { scopes, claims })');
        expect(handled).toBe(0);
        expect(tools.runs).toEqual([]);
      });

      it('outside a request (a bootstrap task, a queue consumer) the toolkit has no caller but its own context', async () => {
        const toolkit = client.app.get(Toolkit);
        expect(toolkit.getActiveTools().map((tool) => tool.name)).toEqual(['get_time']);
        expect((await toolkit.callTool(call('read_report', { id: 'q3' }))).error?.code).toBe('FORBIDDEN');
        expect(tools.runs).toEqual([]);
      });
    });

    describe('approvals decided in another request', () => {
      it('run as their requester, never as the approver (an anonymous requester stays anonymous)', async () => {
        const client = await start(ToolwrightModule.forRoot({ principal: fromUser }), true);
        try {
          const heldOf = async (name: string, args: object, user?: string): Promise<string> => {
            const held = (await client.post('calls', call(name, args), user)).body as ToolResult;
            if (!isPendingApprovalResult(held)) throw new Error(`not held: ${held.forLLM}`);
            return held.data.approvalId;
          };
          const anonymous = await heldOf('whoami', {});
          expect(((await client.post(`approvals/${anonymous}`, {}, 'ann')).body as ToolResult).forLLM).toBe('nobody');
          const ann = await heldOf('read_report', { id: 'q9' }, 'ann');
          expect(((await client.post(`approvals/${ann}`, {}, 'guest')).body as ToolResult).forLLM).toBe('report q9 for ann');
        } finally {
          await client.app.close();
        }
      });
    });

    describe('ToolwrightModule.forRootAsync with a principal source', () => {
      it('takes the callback from the factory; without one the request is passed through untouched', async () => {
        for (const [options, expected] of [
          [{ principal: fromUser }, ['read_report', 'get_time']],
          [{}, ['get_time']],
        ] as [ToolwrightNestOptions, string[]][]) {
          const client = await start(ToolwrightModule.forRootAsync({ useFactory: async () => options }));
          try {
            expect((await client.get('tools', 'ann')).body).toEqual(expected);
          } finally {
            await client.app.close();
          }
        }
      });

      it('rejects a principal that is not a function at once', () => {
        expect(() => ToolwrightModule.forRoot({ principal: 'user' as unknown as NestPrincipalSource })).toThrow(/principal must be a function \(request\) => Principal \| undefined/);
      });
    });
  });
}
