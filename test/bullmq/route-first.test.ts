import 'reflect-metadata';
import { join } from 'node:path';
import { Tool, ToolExecutionContext, ToolParam, ToolService, Toolkit } from '../../src';
import { createToolWorker, queueTools, type QueuedTools, type ToolWorker } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';
import { runCounter } from '../support/travelling-user';
import { runChildFixture } from '../support/child-process';
import { thrown } from '../support/errors';
import { warningsDuring } from '../support/warnings';
import { startQueue, stopQueue, type QueuePair } from './fixtures/queue';
import { closeServices, countRun, ReportService, SECRET, TRAVEL, UserContext } from './fixtures/services';

jest.setTimeout(60_000);

const runsPrefix = uniqueQueue('route-first-runs');
process.env.TW_RUNS = runsPrefix;

const UNBOUND_WARNING = 'TOOLWRIGHT_PRESET_UNBOUND';
const user = ToolExecutionContext.of(new UserContext('ada', 'acme'));

/** A context the queue's declaration does not name: it cannot travel. */
class Ledger {
  readonly id = 'ledger-1';
}

@ToolService({ group: 'reports' })
class LedgerReports {
  @Tool({ name: 'ledger_report', description: 'Needs a ledger' })
  report(@ToolParam({ name: 'month' }) month: string, ledger: Ledger): string {
    return `${month}:${ledger.id}`;
  }
}

/** Where each of Billing's runs happened: it must never run on the caller. */
const billed: string[] = [];

@ToolService({ group: 'billing' })
class Billing {
  @Tool({ name: 'charge', description: 'Charges with a hidden key' })
  charge(@ToolParam({ name: 'amount' }) amount: number, @ToolParam({ name: 'apiKey', preset: true }) apiKey: string): string {
    billed.push(`${amount}`);
    return `${amount}:${apiKey.length}`;
  }
}

/** The key only the worker binds (a length no other key here has). */
const SIGNING_KEY = 'sign-worker-only-3c1d';

@ToolService({ group: 'signing' })
class Signer {
  @Tool({ name: 'sign_export', description: 'Signs an export with a hidden key' })
  async sign(@ToolParam({ name: 'tag' }) tag: string, @ToolParam({ name: 'signingKey', preset: true }) signingKey: string): Promise<string> {
    const runs = await countRun(`sign:${tag}`);
    return `signed ${tag} with a key of ${signingKey.length} chars (run ${runs})`;
  }
}

afterAll(async () => {
  await cleanRedis(`${runsPrefix}:*`);
  closeServices();
});

describe('a tool whose preset is bound on the workers: routed before it is registered', () => {
  const queueName = uniqueQueue('route-first');
  let caller: Toolkit;
  let pair: QueuePair;

  beforeAll(async () => {
    caller = new Toolkit();
    caller.createToolGroup('reports', 'Reports', true);
    const workerKit = new Toolkit();
    workerKit.registration().tool(ReportService).presetParameters({ build_report: { apiKey: SECRET }, leak_key: { apiKey: SECRET }, reject_key: { apiKey: SECRET } }).apply();
    pair = await startQueue(queueName, caller, workerKit, { groups: ['reports'], contexts: TRAVEL }, { contexts: TRAVEL });
  });

  afterAll(() => stopQueue(pair, queueName));

  it("registers without the preset on the caller and without a warning, and runs on the worker with the worker's value", async () => {
    expect(await warningsDuring(UNBOUND_WARNING, () => caller.registerTool(ReportService))).toEqual([]);
    expect(caller.getToolSchemas().find((s) => s.name === 'build_report')?.parameters.properties).not.toHaveProperty('apiKey');
    const result = await caller.callTool({ id: 'r1', name: 'build_report', arguments: { month: '2026-10' } }, { context: user });
    expect(result.isError).toBe(false);
    expect(result.forLLM).toContain(`report 2026-10 for `);
    expect(result.forLLM).toContain(`(key of ${SECRET.length} chars)`);
  });

  it('a preset tool the route does not take registers with one warning, and its call fails with both fixes without running', async () => {
    const warnings = await warningsDuring(UNBOUND_WARNING, () => caller.registerTool(Billing));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("Billing.charge: tool 'charge' hides the preset parameter(s) 'apiKey'");
    expect(warnings[0]).toContain('presetParameters({ charge: { apiKey: … } })');
    expect(warnings[0]).toContain("queueTools(toolkit, { tools: ['charge'], … })");
    const result = await caller.callTool({ id: 'b1', name: 'charge', arguments: { amount: 3 } });
    expect(result.error?.code).toBe('PRESET_UNBOUND');
    expect(result.error?.message).toContain('presetParameters({ charge: { apiKey: … } })');
    expect(result.error?.message).toContain("queueTools(toolkit, { tools: ['charge'], … })");
    expect(billed).toEqual([]);
  });

  it('a tool registered into a routed group that injects a context the queue cannot carry is refused at registration', () => {
    const error = thrown(() => caller.registerTool(LedgerReports), 'INVALID_CONTEXT');
    expect(error.message).toContain("Tool 'ledger_report' injects the Ledger context, which cannot travel to its workers");
    expect(caller.getToolSchemas().map((s) => s.name)).not.toContain('ledger_report');
  });
});

describe('the documented order: registered unbound, then routed by name (queueTools { tools })', () => {
  const queueName = uniqueQueue('register-then-route');
  let routing: QueuedTools | undefined;
  let worker: ToolWorker | undefined;

  afterAll(async () => {
    await Promise.all([routing?.close(), worker?.close()]);
    await cleanRedis(`bull:${queueName}:*`);
  });

  it("warns about nothing, and the call runs once, on the worker, with the worker's key", async () => {
    await requireRedis();
    const caller = new Toolkit();
    let route!: QueuedTools;
    const warnings = await warningsDuring(UNBOUND_WARNING, () => {
      caller.registerTool(Signer);
      routing = route = queueTools(caller, { connection: REDIS, queueName, tools: ['sign_export'] });
    });
    expect(warnings).toEqual([]);
    expect(caller.getToolSchemas()[0].parameters.properties).toEqual({ tag: { type: 'string' } });
    const workerKit = new Toolkit();
    workerKit.registration().tool(Signer).presetParameters({ sign_export: { signingKey: SIGNING_KEY } }).apply();
    worker = createToolWorker(workerKit, { connection: REDIS, queueName });
    await Promise.all([route.ready(), worker.ready()]);
    const tag = `t-${queueName}`;
    const result = await caller.callTool({ id: 's1', name: 'sign_export', arguments: { tag } });
    expect(result.isError).toBe(false);
    expect(result.forLLM).toBe(`signed ${tag} with a key of ${SIGNING_KEY.length} chars (run 1)`);
    expect(JSON.stringify(result)).not.toContain(SIGNING_KEY);
    expect(await runCounter().get(`${runsPrefix}:sign:${tag}`)).toBe('1');
  });
});

describe('in a real process, whose warning listeners hear it', () => {
  it('one TOOLWRIGHT_PRESET_UNBOUND warning for the tool nothing binds or routes, registered twice; none for the tools routed after or before their registration', async () => {
    await requireRedis();
    const report = await runChildFixture<{ warnings: string[] }>(join(__dirname, 'fixtures', 'preset-warning-child.ts'));
    expect(report.warnings).toEqual([expect.stringMatching(/^TOOLWRIGHT_PRESET_UNBOUND: Forgotten\.run: tool 'forgotten_export' hides the preset parameter\(s\) 'apiKey' /)]);
    expect(report.warnings[0]).toContain("route it to them: queueTools(toolkit, { tools: ['forgotten_export'], … })");
  });
});
