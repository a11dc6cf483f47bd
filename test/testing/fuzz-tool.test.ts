import { Tool, ToolParam, Toolkit, ToolkitError, type AgentTool } from '../../src';
import path from 'node:path';
import { fuzzTool, type FuzzFinding } from '../../src/testing';
import { runChildFixture } from '../support/child-process';

const SECRET = 'sk-preset-7f3a9c';

const ORDER_SCHEMA = {
  type: 'object',
  properties: {
    sku: { type: 'string', minLength: 1, maxLength: 12 },
    quantity: { type: 'integer', minimum: 1, maximum: 50 },
    express: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', enum: ['gift', 'fragile'] }, maxItems: 2 },
  },
  required: ['sku', 'quantity'],
  additionalProperties: false,
} as const;

function kit(tool: Omit<AgentTool, 'description' | 'parameters'> & Partial<Pick<AgentTool, 'parameters'>>): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registerTool({ description: 'A tool under test', parameters: ORDER_SCHEMA, ...tool });
  return toolkit;
}

describe('fuzzTool', () => {
  test('a sound tool: every valid argument set runs, every invalid one is refused, nothing is found', async () => {
    const seen: unknown[] = [];
    const toolkit = kit({
      name: 'place_order',
      behaviour: { annotations: { idempotent: true } },
      execute: (args) => {
        seen.push(args);
        return `ordered ${String(args.quantity)} × ${String(args.sku)}`;
      },
    });
    const report = await fuzzTool(toolkit, 'place_order', { numRuns: 40, seed: 42 });
    expect(report).toMatchObject({ tool: 'place_order', seed: 42, validRuns: 40, invalidRuns: 20, refused: 0, budgetExhausted: false, findings: [], ok: true });
    // idempotent: each valid set ran twice; invalid ones never reached the tool
    expect(seen).toHaveLength(80);
    for (const args of seen) {
      const { sku, quantity } = args as { sku: string; quantity: number };
      expect(sku.length).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(quantity) && quantity >= 1 && quantity <= 50).toBe(true);
    }
  });

  test('the same seed generates the same arguments', async () => {
    const runs: unknown[][] = [[], []];
    for (const run of runs) {
      await fuzzTool(kit({ name: 'place_order', execute: (args) => void run.push(args) }), 'place_order', { numRuns: 10, seed: 7 });
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]).toHaveLength(10);
  });

  test('a tool that crashes on some inputs is reported with the arguments', async () => {
    const toolkit = kit({
      name: 'place_order',
      execute: (args) => {
        if ((args.quantity as number) > 25) throw new Error('stock table overflow');
        return 'ok';
      },
    });
    const report = await fuzzTool(toolkit, 'place_order', { numRuns: 60, seed: 1 });
    expect(report.ok).toBe(false);
    const crashes = report.findings.filter((f) => f.kind === 'crash');
    expect(crashes.length).toBeGreaterThan(0);
    for (const crash of crashes) {
      // an invalid set the toolkit coerces (quantity "30") reaches the tool too, and counts
      expect(Number((crash.arguments as { quantity: unknown }).quantity)).toBeGreaterThan(25);
      expect(crash.message).toBe("EXECUTION_FAILED: 'Tool 'place_order' failed: stock table overflow'");
    }
    expect(crashes.some((crash) => !crash.invalid)).toBe(true);
  });

  test('a rejection the tool leaves unhandled is reported (in a plain Node process; Jest fails the test on it by itself)', async () => {
    const run = await runChildFixture<{ findings: FuzzFinding[]; listeners: number }>(path.join(__dirname, 'fixtures', 'unhandled-rejection-child.ts'));
    expect(run.findings.map((f) => f.kind)).toEqual(['unhandled_rejection', 'unhandled_rejection', 'unhandled_rejection']);
    expect(run.findings[0]?.message).toBe("a promise rejected with nobody handling it: 'audit log write failed'");
    expect(run.findings[0]?.arguments).toMatchObject({ sku: expect.any(String) });
    expect(run.listeners).toBe(0);
  }, 30_000);

  test('a secret in a result or an error is reported, never quoted', async () => {
    const toolkit = kit({
      name: 'place_order',
      execute: (args) => {
        if (args.express === true) throw new Error(`payment gateway refused key ${SECRET}`);
        return { receipt: 'r-1', debug: { key: SECRET } };
      },
    });
    const report = await fuzzTool(toolkit, 'place_order', { numRuns: 20, invalidRuns: 0, seed: 5, secrets: [SECRET] });
    const leaks = report.findings.filter((f) => f.kind === 'secret_leak');
    expect(leaks.length).toBeGreaterThan(0);
    expect(JSON.stringify(report)).not.toContain(SECRET);
    const error = await fuzzTool(toolkit, 'place_order', { numRuns: 20, invalidRuns: 0, seed: 5, secrets: [SECRET], assert: true }).catch((e: unknown) => e);
    expect(ToolkitError.is(error) && error.code).toBe('EXECUTION_FAILED');
    expect((error as Error).message).toContain('secret_leak');
    expect((error as Error).message).not.toContain(SECRET);
  });

  test('a slow call is reported; a hung one is aborted when the time budget runs out', async () => {
    const slow = kit({ name: 'place_order', execute: (args) => new Promise((resolve) => setTimeout(() => resolve('ok'), args.express === true ? 60 : 0)) });
    const report = await fuzzTool(slow, 'place_order', { numRuns: 12, invalidRuns: 0, seed: 11, slowMs: 40 });
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((f) => f.kind === 'slow' && (f.arguments as { express?: boolean }).express === true)).toBe(true);

    let aborted = 0;
    const hung = kit({
      name: 'place_order',
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal?.addEventListener('abort', () => {
            aborted++;
            reject(new Error('aborted'));
          });
        }),
    });
    const started = Date.now();
    const budget = await fuzzTool(hung, 'place_order', { numRuns: 50, seed: 2, slowMs: 20, timeBudgetMs: 150 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(budget.budgetExhausted).toBe(true);
    expect(budget.findings[0]).toMatchObject({ kind: 'slow', message: expect.stringContaining('time budget') });
    expect(aborted).toBeGreaterThan(0);
  });

  test('a readOnly tool that answers differently to the same arguments is non-deterministic', async () => {
    let counter = 0;
    const toolkit = kit({ name: 'place_order', behaviour: { annotations: { readOnly: true } }, execute: () => `quote #${++counter}` });
    const report = await fuzzTool(toolkit, 'place_order', { numRuns: 3, invalidRuns: 0, seed: 9 });
    expect(report.findings.map((f) => f.kind)).toEqual(['nondeterministic', 'nondeterministic', 'nondeterministic']);
    // a tool not marked readOnly or idempotent is not checked unless asked
    const plain = kit({ name: 'place_order', execute: () => `quote #${++counter}` });
    expect((await fuzzTool(plain, 'place_order', { numRuns: 3, invalidRuns: 0, seed: 9 })).ok).toBe(true);
    expect((await fuzzTool(plain, 'place_order', { numRuns: 3, invalidRuns: 0, seed: 9, determinism: true })).ok).toBe(false);
  });

  test('a decorated service method with a preset: the crash is found, the toolkit redacts the preset in its error, nothing leaks', async () => {
    class Payments {
      @Tool({ name: 'refund', description: 'Refund an order' })
      refund(@ToolParam({ name: 'orderId' }) orderId: string, @ToolParam({ name: 'amount' }) amount: number, @ToolParam({ name: 'apiKey' }) apiKey: string): string {
        if (amount < 0) throw new Error(`negative refund with ${apiKey}`);
        return `refunded ${orderId}`;
      }
    }
    const toolkit = new Toolkit();
    toolkit.registerTool(new Payments(), { presets: { refund: { apiKey: SECRET } } });
    expect(Object.keys(toolkit.getToolSchemas()[0]?.parameters.properties ?? {})).toEqual(['orderId', 'amount']);
    const report = await fuzzTool(toolkit, 'refund', { numRuns: 40, seed: 4, secrets: [SECRET] });
    expect(report.refused).toBe(0);
    const crash = report.findings.find((f) => f.kind === 'crash');
    expect(crash?.message).toContain('negative refund with [REDACTED]');
    expect(report.findings.some((f) => f.kind === 'secret_leak')).toBe(false);
    expect(JSON.stringify(report)).not.toContain(SECRET);
  });

  test('an unknown tool is UNKNOWN_TOOL; assert on a clean run returns the report', async () => {
    const toolkit = kit({ name: 'place_order', execute: () => 'ok' });
    await expect(fuzzTool(toolkit, 'nope', { numRuns: 1 })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    await expect(fuzzTool(toolkit, 'place_order', { numRuns: 5, assert: true })).resolves.toMatchObject({ ok: true });
  });
});
