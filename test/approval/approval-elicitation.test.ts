import 'reflect-metadata';
import { ApprovalManager, isPendingApprovalResult, Toolkit, ToolExecutionContext, ToolkitError, type ApprovalDecision, type ApprovalManagerOptions } from '../../src';
import { createMcpServer } from '../../src/mcp';
import { Closer, eventually, textOf } from '../support/mcp';
import { AskingClient, HostileClient, connectAsking } from '../support/mcp-asking';
import { RunLog, loggedTool } from '../support/logged-tools';

const closer = new Closer();
afterEach(() => closer.closeAll());

class User {
  constructor(readonly id: string) {}
}

/** A toolkit whose `pay` tool needs approval (asked through elicitation) and records who ran it. */
function paymentToolkit(options: Partial<ApprovalManagerOptions> = {}): { toolkit: Toolkit; approvals: ApprovalManager; log: RunLog; decisions: ApprovalDecision[]; users: string[] } {
  const toolkit = new Toolkit();
  const log = new RunLog();
  const users: string[] = [];
  toolkit.registerTool(loggedTool(log, 'pay', { risk: 'high' }));
  toolkit.registerTool({
    name: 'whoami',
    description: 'Says who runs it',
    parameters: { type: 'object', properties: {} },
    // covers the approval's question too: long enough for an answered round trip on two loaded cores
    behaviour: { risk: 'high', timeoutMs: 2_000 },
    execute: (_args, ctx) => {
      const user = ctx.context.get(User)?.id ?? 'nobody';
      users.push(user);
      return user;
    },
  });
  const approvals = new ApprovalManager({ minRisk: 'high', elicitation: true, principal: (ctx) => ctx.context.get(User)?.id, ...options });
  toolkit.use(approvals.hook);
  const decisions: ApprovalDecision[] = [];
  approvals.decisions$.subscribe((d) => decisions.push(d));
  return { toolkit, approvals, log, decisions, users };
}

const answering = (...actions: ('accept' | 'decline' | 'cancel')[]) => new AskingClient({ elicitation: {} }, { elicit: () => ({ action: actions.shift() }) });

describe('approval through the requester’s MCP client (elicitation)', () => {
  test('accept runs the call now, in its own request; the question names the tool, its arguments and the reason; decisions$ gets the result', async () => {
    const { toolkit, approvals, log, decisions } = paymentToolkit();
    const { client } = await connectAsking(toolkit, closer, answering('accept'));
    const result = await client.call('pay', { n: 120, text: 'rent' });
    expect(textOf(result)).toBe('pay done with {"n":120,"text":"rent"}');
    expect(log.count('pay')).toBe(1);
    expect(client.elicited).toEqual([
      { message: 'Allow the assistant to run pay with {"n":120,"text":"rent"}? (tool \'pay\' has risk level \'high\')', requestedSchema: { type: 'object', properties: {} } },
    ]);
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ decision: 'approved', approval: { toolName: 'pay', arguments: { n: 120, text: 'rent' } }, result: { forLLM: 'pay done with {"n":120,"text":"rent"}' } });
    // decided once: the id cannot be approved again
    await expect(approvals.approve(decisions[0].approval.id)).rejects.toMatchObject({ code: 'APPROVAL_NOT_PENDING', message: expect.stringContaining('already approved') });
  });

  test('decline and cancel reject the call (APPROVAL_REJECTED); the tool does not run', async () => {
    const { toolkit, log, decisions } = paymentToolkit();
    const { client } = await connectAsking(toolkit, closer, answering('decline', 'cancel'));
    const declined = await client.call('pay', { n: 1 });
    const dismissed = await client.call('pay', { n: 2 });
    expect(declined.isError && dismissed.isError).toBe(true);
    expect(textOf(declined)).toMatch(/^A person rejected the call to tool 'pay' \(approval appr_[0-9a-f-]+\): the user declined it\./);
    expect(textOf(dismissed)).toContain('the user dismissed the question');
    expect(log.count('pay')).toBe(0);
    expect(decisions.map((d) => [d.decision, d.result.error?.code])).toEqual([
      ['rejected', 'APPROVAL_REJECTED'],
      ['rejected', 'APPROVAL_REJECTED'],
    ]);
  });

  test('no client that can be asked (no elicitation capability, a direct call): the call is held as before', async () => {
    const { toolkit, approvals, log } = paymentToolkit();
    const { client } = await connectAsking(toolkit, closer, new AskingClient({}));
    const held = await client.call('pay', { n: 3 });
    expect(textOf(held)).toContain("needs a person's approval before it runs");
    const direct = await toolkit.callTool({ id: 'd1', name: 'pay', arguments: { n: 4 } });
    expect(isPendingApprovalResult(direct)).toBe(true);
    expect(approvals.pending().map((p) => p.arguments.n)).toEqual([3, 4]);
    expect(log.count('pay')).toBe(0);
    expect((await approvals.approve(approvals.pending()[1].id)).forLLM).toBe('pay done with {"n":4}');
  });

  test('a hostile or failing client gets no say: an error, an invalid answer or no answer in time hold the call instead', async () => {
    const { toolkit, approvals, log } = paymentToolkit({ elicitation: { timeoutMs: 100 } });
    const answers: (Record<string, unknown> | undefined)[] = [{ error: { code: -32603, message: 'boom' } }, { result: { action: 'approve!' } }, undefined];
    const mcp = closer.add(createMcpServer(toolkit, { name: 't', version: '1' }));
    const hostile = closer.add(await HostileClient.connect(mcp, { elicitation: {} }, () => answers.shift()));
    for (let n = 0; n < 3; n++) {
      const answer = await hostile.request('tools/call', { name: 'pay', arguments: { n } });
      expect((answer.result as { content: { text: string }[] }).content[0].text).toContain('is waiting for approval under id');
    }
    expect(hostile.requests.filter((r) => r.method === 'elicitation/create')).toHaveLength(3);
    expect(approvals.pending()).toHaveLength(3);
    expect(log.count('pay')).toBe(0);
  });

  test('bound to the requester: only the calling session’s client is asked, and the approved call runs with that caller’s context', async () => {
    const { toolkit, users, approvals } = paymentToolkit();
    const alice = (await connectAsking(toolkit, closer, answering('accept'), { sessions: true, context: () => ToolExecutionContext.of(new User('alice')) })).client;
    const bob = (await connectAsking(toolkit, closer, answering('accept'), { sessions: true, context: () => ToolExecutionContext.of(new User('bob')) })).client;
    expect(textOf(await alice.call('whoami'))).toBe('alice');
    expect(alice.elicited).toHaveLength(1);
    expect(bob.elicited).toHaveLength(0);
    expect(textOf(await bob.call('whoami'))).toBe('bob');
    expect(users).toEqual(['alice', 'bob']);
    // a decision given through a client is never remembered: the next call asks again
    await alice.call('whoami');
    expect(alice.elicited).toHaveLength(2);
    expect(approvals.remembered()).toEqual([]);
  });

  test('a call decided before (the decision store says so) is rejected without running, whatever the user answers', async () => {
    const { toolkit, log } = paymentToolkit({ decisions: { claim: () => false } });
    const { client } = await connectAsking(toolkit, closer, answering('accept'));
    const result = await client.call('pay', { n: 5 });
    expect(textOf(result)).toContain('this call was decided before, and a decided call does not run again');
    expect(log.count('pay')).toBe(0);
  });

  test('the call’s timeout covers the question: TIMEOUT, the question is cancelled, the tool never runs; a custom question is used', async () => {
    const { toolkit, users } = paymentToolkit({ elicitation: { message: (a) => `Let ${a.toolName} run?` } });
    let cancelled = 0;
    const slow = new AskingClient(
      { elicitation: {} },
      {
        elicit: (request, extra) =>
          request.params.message === 'Let pay run?'
            ? { action: 'accept' }
            : new Promise((resolve) => extra.signal.addEventListener('abort', () => (cancelled++, resolve({ action: 'accept' })))),
      },
    );
    const { client } = await connectAsking(toolkit, closer, slow);
    // the SDK client ignores the cancellation of a request whose id is 0: the server's first request is answered
    await client.call('pay', { n: 7 });
    expect(textOf(await client.call('whoami'))).toContain("Tool 'whoami' timed out after 2000 ms");
    expect(client.elicited.map((e) => e.message)).toEqual(['Let pay run?', 'Let whoami run?']);
    await eventually(() => cancelled === 1);
    expect(users).toEqual([]);
  });

  test('a store that fails while recording the decision fails the call closed (HOOK_FAILED), nothing runs', async () => {
    const { toolkit, log } = paymentToolkit({
      decisions: {
        claim: () => {
          throw new ToolkitError('APPROVAL_STORE_FAILED', 'redis down');
        },
      },
    });
    const { client } = await connectAsking(toolkit, closer, answering('accept'));
    const result = await client.call('pay', { n: 6 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("stopped by hook 'approval'");
    expect(log.count('pay')).toBe(0);
  });
});
