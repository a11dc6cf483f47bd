import 'reflect-metadata';
import { ApprovalManager, Tool, ToolParam, ToolService, type ApprovalDecision, type Toolkit } from '../../src';
import { newToolkit } from '../support/toolkit';

/**
 * The toolkit the adapters' approval tests share: `send_payment` needs a person's approval,
 * `get_balance` does not; every run is recorded in {@link runs}.
 */

/** Every run of the payment tools, in order: `'bob:5'`, `'balance'`. */
export const runs: string[] = [];

@ToolService()
class Payments {
  @Tool({ name: 'send_payment', description: 'Sends money' })
  send(@ToolParam({ name: 'to' }) to: string, @ToolParam({ name: 'amount', type: () => Number }) amount: number): string {
    runs.push(`${to}:${amount}`);
    return `sent ${amount} to ${to}`;
  }

  @Tool({ name: 'get_balance', description: 'The balance' })
  balance(): string {
    runs.push('balance');
    return 'balance: 100';
  }
}

/** A fresh toolkit with the payment tools, an ApprovalManager holding `send_payment` (or the one given), and its decisions as they come. */
export function paymentsToolkit(manager?: ApprovalManager): { toolkit: Toolkit; approvals: ApprovalManager; decisions: ApprovalDecision[] } {
  const toolkit = newToolkit();
  toolkit.registerTool(Payments);
  const approvals = manager ?? new ApprovalManager({ tools: ['send_payment'] });
  toolkit.use(approvals.hook);
  const decisions: ApprovalDecision[] = [];
  approvals.decisions$.subscribe((d) => decisions.push(d));
  return { toolkit, approvals, decisions };
}
