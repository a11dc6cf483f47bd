import 'reflect-metadata';
import { Tool, ToolExecutionContext, ToolParam, ToolService, Toolkit } from '../../src';
import { uniqueQueue } from '../support/redis';
import { thrown } from '../support/errors';
import { startQueue, stopQueue, type QueuePair } from './fixtures/queue';
import { closeServices, ReportService, SECRET, TRAVEL, UserContext } from './fixtures/services';

jest.setTimeout(60_000);

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

@ToolService({ group: 'billing' })
class Billing {
  @Tool({ name: 'charge', description: 'Charges with a hidden key' })
  charge(@ToolParam({ name: 'amount' }) amount: number, @ToolParam({ name: 'apiKey', preset: true }) apiKey: string): string {
    return `${amount}:${apiKey.length}`;
  }
}

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

  afterAll(async () => {
    await stopQueue(pair, queueName);
    await closeServices();
  });

  it('registers without the preset on the caller, and runs on the worker with the worker\'s value', async () => {
    expect(() => caller.registerTool(ReportService)).not.toThrow();
    expect(caller.getToolSchemas().find((s) => s.name === 'build_report')?.parameters.properties).not.toHaveProperty('apiKey');
    const result = await caller.callTool({ id: 'r1', name: 'build_report', arguments: { month: '2026-10' } }, { context: ToolExecutionContext.of(new UserContext('ada', 'acme')) });
    expect(result.isError).toBe(false);
    expect(result.forLLM).toContain(`report 2026-10 for `);
    expect(result.forLLM).toContain(`(key of ${SECRET.length} chars)`);
  });

  it('a preset tool the route does not take is still refused at registration', () => {
    const error = thrown(() => caller.registerTool(Billing), 'INVALID_DEFINITION');
    expect(error.message).toContain("Billing.charge: tool 'charge' hides the preset parameter(s) 'apiKey'");
    expect(error.message).toContain("route its group first: queueTools(toolkit, { groups: ['billing'], … })");
    expect(caller.getToolSchemas().map((s) => s.name)).not.toContain('charge');
  });

  it('a tool registered into a routed group that injects a context the queue cannot carry is refused at registration', () => {
    const error = thrown(() => caller.registerTool(LedgerReports), 'INVALID_CONTEXT');
    expect(error.message).toContain("Tool 'ledger_report' injects the Ledger context, which cannot travel to its workers");
    expect(caller.getToolSchemas().map((s) => s.name)).not.toContain('ledger_report');
  });
});
