import { Tool, ToolEmitter, ToolParam, ToolService } from '../../../src';

/** Who asks: travels with each queued call (class-transformer rebuilds it on the worker). */
export class Requester {
  constructor(public name = '') {}
}

/** The context classes that travel, declared once for the caller and the workers. */
export const TRAVELLING = { requester: Requester } as const;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** Slow reports: the calls the API process hands to the workers. */
@ToolService({ group: 'reports' })
export class ReportService {
  @Tool({ description: 'Build the sales report of a month (takes a few seconds)', timeoutMs: 30_000, annotations: { idempotent: true } })
  async sales_report(
    @ToolParam({ name: 'month', description: 'YYYY-MM', schema: { pattern: '^\\d{4}-(0[1-9]|1[0-2])$' } }) month: string,
    @ToolParam({ name: 'warehouseToken', preset: true }) token: string,
    requester: Requester,
    emitter: ToolEmitter,
    signal: AbortSignal,
  ): Promise<string> {
    for (let step = 1; step <= 3; step++) {
      await sleep(250, signal);
      emitter.emit({ progress: step, total: 3, message: `month ${month}: part ${step} of 3` });
    }
    const total = 1000 + [...month].reduce((sum, c) => sum + c.charCodeAt(0), 0) * (token.length % 7);
    return `Sales ${month} for ${requester.name}: ${total} orders (worker pid ${process.pid})`;
  }
}
