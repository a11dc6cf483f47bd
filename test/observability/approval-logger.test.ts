import { Container } from 'inversify';
import { ApprovalManager, Toolkit } from '../../src';
import { PINO_LEVEL, pinoLogger, throwingLogger } from '../support/loggers';

function payingToolkit(approvals: ApprovalManager): Toolkit {
  const toolkit = new Toolkit({ container: new Container() });
  toolkit.registerTool({
    name: 'pay',
    description: 'Pays an amount',
    parameters: { type: 'object', properties: { amount: { type: 'number' }, iban: { type: 'string' } }, required: ['amount', 'iban'] },
    execute: (args) => `paid ${String(args.amount)}`,
  });
  toolkit.use(approvals.hook);
  return toolkit;
}

describe('new ApprovalManager({ logger })', () => {
  it('logs each held call and each decision with who took it, never the arguments or the reason', async () => {
    const { logger, lines, text } = pinoLogger('debug');
    const approvals = new ApprovalManager({ tools: ['pay'], logger, when: () => 'IBAN DE89370400440532013000 needs a check' });
    const toolkit = payingToolkit(approvals);
    await toolkit.session('s1').callTool({ id: 'c1', name: 'pay', arguments: { amount: 1234, iban: 'DE89370400440532013000' } });
    await toolkit.session('s1').callTool({ id: 'c2', name: 'pay', arguments: { amount: 99, iban: 'DE89370400440532013000' } });
    const [first, second] = approvals.pending();
    expect(lines()).toEqual([
      expect.objectContaining({ level: PINO_LEVEL.info, event: 'approval_requested', approvalId: first.id, tool: 'pay', callId: 'c1', sessionId: 's1', msg: 'approval requested for pay' }),
      expect.objectContaining({ level: PINO_LEVEL.info, event: 'approval_requested', approvalId: second.id, callId: 'c2' }),
    ]);
    expect((await approvals.approve(first.id, { decidedBy: 'alice' })).forLLM).toBe('paid 1234');
    await approvals.reject(second.id, 'too small', { decidedBy: 'bob' });
    expect(lines().slice(2)).toEqual([
      expect.objectContaining({ level: PINO_LEVEL.info, event: 'approval_approved', approvalId: first.id, tool: 'pay', decidedBy: 'alice', msg: 'call pay approved by alice' }),
      expect.objectContaining({ level: PINO_LEVEL.info, event: 'approval_rejected', approvalId: second.id, decidedBy: 'bob', msg: 'call pay rejected by bob' }),
    ]);
    expect(text()).not.toMatch(/1234|DE89|needs a check|too small/);
  });

  it('a throwing logger does not stop a call from being held or decided', async () => {
    const broken = throwingLogger();
    const approvals = new ApprovalManager({ tools: ['pay'], logger: broken });
    const toolkit = payingToolkit(approvals);
    const held = await toolkit.callTool({ id: 'c1', name: 'pay', arguments: { amount: 5, iban: 'x' } });
    expect(held.async).toBe(true);
    expect((await approvals.approve(approvals.pending()[0].id, { decidedBy: 'alice' })).forLLM).toBe('paid 5');
  });

  it('decisions$ carries decidedBy', async () => {
    const approvals = new ApprovalManager({ tools: ['pay'] });
    const toolkit = payingToolkit(approvals);
    const decided: (string | undefined)[] = [];
    approvals.decisions$.subscribe((d) => decided.push(d.decidedBy));
    await toolkit.callTool({ id: 'c1', name: 'pay', arguments: { amount: 5, iban: 'x' } });
    await toolkit.callTool({ id: 'c2', name: 'pay', arguments: { amount: 6, iban: 'x' } });
    const [a, b] = approvals.pending();
    await approvals.approve(a.id, { decidedBy: 'carol' });
    await approvals.reject(b.id);
    expect(decided).toEqual(['carol', undefined]);
  });
});
