import 'reflect-metadata';
import { ApprovalManager, Toolkit, type AgentTool, type ClientRequests } from '../../../src';
import { errorResult } from '../../../src/model/results';
import { McpRoundTrips, replaySafeOf, type RoundOutcome } from '../../../src/mcp/server/modern/round-trips';
import { RequestStateCodec } from '../../../src/mcp/server/modern/request-state';
import { memoryMcpStateStore } from '../../../src/mcp/server/modern/state-store';

const SECRET = 'a-test-secret-of-at-least-32-bytes!!';
const BOTH = { elicitation: {}, sampling: {} };

/** A toolkit of asking tools; `effects` counts what each did after its questions. */
function askingToolkit() {
  const effects: Record<string, number> = {};
  const effect = (name: string) => (effects[name] = (effects[name] ?? 0) + 1);
  const toolkit = new Toolkit();
  const tool = (name: string, annotations: Record<string, boolean>, body: (args: Record<string, unknown>, client: ClientRequests) => Promise<string>): AgentTool => ({
    name,
    description: name,
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    behaviour: { annotations },
    execute: (args, ctx) => body(args, ctx.client!),
  });
  toolkit.registerTool(
    tool('greet', { readOnly: true }, async (_args, client) => {
      const answer = await client.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] } });
      effect('greet');
      return answer.action === 'accept' ? `Hello, ${answer.content!.name}!` : `no name (${answer.action})`;
    }),
  );
  toolkit.registerTool(
    tool('two_steps', { idempotent: true }, async (_args, client) => {
      const one = await client.elicit<{ name: string }>({ message: 'Step 1: name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
      const two = await client.elicit<{ color: string }>({ message: 'Step 2: color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] } });
      effect('two_steps');
      return `${one.content?.name} likes ${two.content?.color}`;
    }),
  );
  toolkit.registerTool(
    tool('parallel', { readOnly: true }, async (_args, client) => {
      const [a, b] = await Promise.all([
        client.elicit({ message: 'A?', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } }),
        client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 20 }),
      ]);
      effect('parallel');
      return `${JSON.stringify(a.content)} ${b.content.type === 'text' ? b.content.text : ''}`;
    }),
  );
  toolkit.registerTool(
    tool('transfer', {}, async (_args, client) => {
      await client.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
      effect('transfer');
      return 'transferred';
    }),
  );
  return { toolkit, effects };
}

/** A client session of one principal: it sends rounds the way a 2026-07-28 client does. */
function caller(toolkit: Toolkit, options: { principal?: string; store?: ReturnType<typeof memoryMcpStateStore>; now?: () => number; ttlMs?: number } = {}) {
  const codec = new RequestStateCodec({ secret: SECRET, store: options.store ?? memoryMcpStateStore(), now: options.now, ttlMs: options.ttlMs });
  const trips = new McpRoundTrips(codec);
  let id = 0;
  return (name: string, args: Record<string, unknown>, retry: { requestState?: unknown; inputResponses?: unknown } = {}, capabilities: unknown = BOTH): Promise<RoundOutcome> =>
    trips.run(
      { binding: { principal: options.principal, tool: name, arguments: args }, capabilities, replaySafe: replaySafeOf(toolkit.getTool(name), undefined), ...retry },
      (handler, signal) => toolkit.callTool({ id: `c${++id}`, name, arguments: args }, { signal, client: handler }),
      (message) => errorResult(message),
    );
}

function questions(outcome: RoundOutcome) {
  if (outcome.kind !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function textOf(outcome: RoundOutcome): string {
  if (outcome.kind !== 'complete') throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.result.forLLM;
}

describe('Multi Round-Trip Requests (the round driver over a real Toolkit)', () => {
  test('an elicitation round trip: input_required with the question and a state, then the result; the body’s effect runs once', async () => {
    const { toolkit, effects } = askingToolkit();
    const call = caller(toolkit, { principal: 'alice' });
    const first = questions(await call('greet', {}));
    const [[key, request]] = Object.entries(first.inputRequests);
    expect(request).toEqual({ method: 'elicitation/create', params: expect.objectContaining({ message: 'What is your name?' }) });
    expect(effects.greet).toBeUndefined();
    const done = await call('greet', {}, { requestState: first.requestState, inputResponses: { [key]: { action: 'accept', content: { name: 'Alice', extra: 'dropped' } } } });
    expect(textOf(done)).toBe('Hello, Alice!');
    expect(effects.greet).toBe(1);
  });

  test('two rounds: the second state records the first answer; the tool re-runs from the start with it', async () => {
    const { toolkit, effects } = askingToolkit();
    const call = caller(toolkit);
    const one = questions(await call('two_steps', {}));
    const [k1] = Object.keys(one.inputRequests);
    const two = questions(await call('two_steps', {}, { requestState: one.requestState, inputResponses: { [k1]: { action: 'accept', content: { name: 'Bo' } } } }));
    expect(Object.values(two.inputRequests)).toEqual([{ method: 'elicitation/create', params: expect.objectContaining({ message: 'Step 2: color?' }) }]);
    const [k2] = Object.keys(two.inputRequests);
    const done = await call('two_steps', {}, { requestState: two.requestState, inputResponses: { [k2]: { action: 'accept', content: { color: 'green' } } } });
    expect(textOf(done)).toBe('Bo likes green');
    expect(effects.two_steps).toBe(1);
  });

  test('questions asked together (Promise.all) go out in one round; sampling answers are shape-checked', async () => {
    const { toolkit } = askingToolkit();
    const call = caller(toolkit);
    const first = questions(await call('parallel', {}));
    expect(Object.values(first.inputRequests).map((r) => r.method).sort()).toEqual(['elicitation/create', 'sampling/createMessage']);
    const keys = Object.fromEntries(Object.entries(first.inputRequests).map(([k, r]) => [r.method, k]));
    const answers = {
      [keys['elicitation/create']]: { action: 'accept', content: { a: 'x' } },
      [keys['sampling/createMessage']]: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm', stopReason: 'endTurn' },
    };
    expect(textOf(await call('parallel', {}, { requestState: first.requestState, inputResponses: answers }))).toBe('{"a":"x"} Paris');
  });

  test('supports() reflects the capabilities declared in _meta: no elicitation declared → the tool fails with CLIENT_CAPABILITY_MISSING, asks nothing', async () => {
    const { toolkit } = askingToolkit();
    const outcome = await caller(toolkit)('greet', {}, {}, { sampling: {} });
    expect(outcome.kind === 'complete' && outcome.result.error?.code).toBe('CLIENT_CAPABILITY_MISSING');
  });

  test('the side-effect rule: a tool neither read-only nor idempotent asking from its body ends with an isError naming the fix; its effect never runs', async () => {
    const { toolkit, effects } = askingToolkit();
    const outcome = await caller(toolkit)('transfer', {});
    expect(outcome.kind).toBe('complete');
    expect(textOf(outcome)).toMatch(/^Tool 'transfer' cannot ask the client \(elicitation\/create\) from the body of the tool under MCP 2026-07-28.*Mark it idempotent.*call it as an MCP task\.$/s);
    expect(effects.transfer).toBeUndefined();
  });

  test('an approval asked before the body is replayed even for a non-idempotent tool: approved, it runs once', async () => {
    const toolkit = new Toolkit();
    let runs = 0;
    toolkit.registerTool({ name: 'pay', description: 'pays', parameters: { type: 'object', properties: { n: { type: 'number' } } }, behaviour: { risk: 'high' }, execute: () => `paid ${++runs}` });
    const approvals = new ApprovalManager({ minRisk: 'high', elicitation: true });
    toolkit.use(approvals.hook);
    const call = caller(toolkit, { principal: 'alice' });
    const first = questions(await call('pay', { n: 5 }));
    const [[key, question]] = Object.entries(first.inputRequests);
    expect(question.params).toMatchObject({ message: expect.stringContaining('Allow the assistant to run pay with {"n":5}') });
    expect(runs).toBe(0);
    expect(approvals.pending()).toEqual([]);
    expect(textOf(await call('pay', { n: 5 }, { requestState: first.requestState, inputResponses: { [key]: { action: 'accept', content: {} } } }))).toBe('paid 1');
    expect(runs).toBe(1);
  });

  test('a tool may name its question ({ key }); a repeated name gets a suffix; an invalid one is refused before anything is asked', async () => {
    const toolkit = new Toolkit();
    const form = { type: 'object', properties: { x: { type: 'string' } } } as const;
    toolkit.registerTool({
      name: 'named',
      description: 'named',
      parameters: { type: 'object', properties: {} },
      behaviour: { annotations: { readOnly: true } },
      execute: async (_args, ctx) => {
        await Promise.all([ctx.client!.elicit({ message: 'one', requestedSchema: form }, { key: 'user_name' }), ctx.client!.elicit({ message: 'two', requestedSchema: form }, { key: 'user_name' })]);
        return 'done';
      },
    });
    toolkit.registerTool({
      name: 'badly_named',
      description: 'badly named',
      parameters: { type: 'object', properties: {} },
      behaviour: { annotations: { readOnly: true } },
      execute: (_args, ctx) => ctx.client!.elicit({ message: 'q', requestedSchema: form }, { key: 'no spaces please' }),
    });
    const call = caller(toolkit);
    const first = questions(await call('named', {}));
    expect(Object.keys(first.inputRequests)).toEqual(['user_name', 'user_name-2']);
    const answers = { user_name: { action: 'accept', content: { x: '1' } }, 'user_name-2': { action: 'decline' } };
    expect(textOf(await call('named', {}, { requestState: first.requestState, inputResponses: answers }))).toBe('done');
    const bad = await call('badly_named', {});
    expect(textOf(bad)).toContain('sent an invalid elicitation/create request: key must be 1-64 letters, digits, _, . or -');
  });

  describe('what a hostile client tries', () => {
    test('reusing a state after success: refused (-32602), the tool ran once', async () => {
      const { toolkit, effects } = askingToolkit();
      const call = caller(toolkit);
      const first = questions(await call('greet', {}));
      const [key] = Object.keys(first.inputRequests);
      const retry = { requestState: first.requestState, inputResponses: { [key]: { action: 'accept', content: { name: 'Alice' } } } };
      await call('greet', {}, retry);
      await expect(call('greet', {}, retry)).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/used before/) });
      expect(effects.greet).toBe(1);
    });

    test('another principal, another tool, other arguments: refused before the tool runs', async () => {
      const { toolkit, effects } = askingToolkit();
      const store = memoryMcpStateStore();
      const first = questions(await caller(toolkit, { principal: 'alice', store })('greet', { n: 1 }));
      const [key] = Object.keys(first.inputRequests);
      const retry = { requestState: first.requestState, inputResponses: { [key]: { action: 'accept', content: { name: 'Mallory' } } } };
      await expect(caller(toolkit, { principal: 'mallory', store })('greet', { n: 1 }, retry)).rejects.toThrow(/another principal/);
      await expect(caller(toolkit, { principal: 'alice', store })('parallel', { n: 1 }, retry)).rejects.toThrow(/another tool/);
      await expect(caller(toolkit, { principal: 'alice', store })('greet', { n: 2 }, retry)).rejects.toThrow(/other arguments/);
      expect(effects.greet).toBeUndefined();
    });

    test('answers for questions that were not asked (with a state, or with none) are ignored: the call asks again, nothing runs', async () => {
      const { toolkit, effects } = askingToolkit();
      const call = caller(toolkit);
      expect(questions(await call('greet', {}, { inputResponses: { user_name: { action: 'accept', content: { name: 'A' } } } })).requestState).toEqual(expect.any(String));
      const first = questions(await call('greet', {}));
      const again = questions(await call('greet', {}, { requestState: first.requestState, inputResponses: { forged: { action: 'accept', content: {} } } }));
      expect(again.requestState).not.toBe(first.requestState);
      expect(effects.greet).toBeUndefined();
    });

    test('an answer that fails the form, or has the wrong shape: refused with the problems', async () => {
      const { toolkit, effects } = askingToolkit();
      const call = caller(toolkit);
      const first = questions(await call('greet', {}));
      const [key] = Object.keys(first.inputRequests);
      await expect(call('greet', {}, { requestState: first.requestState, inputResponses: { [key]: { action: 'accept', content: { name: 'A' } } } })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Invalid inputResponses: 'elicitation-[\w-]+': the user's answer does not match the requested form/),
      });
      const again = questions(await call('greet', {}));
      await expect(call('greet', {}, { requestState: again.requestState, inputResponses: { [key]: { action: 'maybe' } } })).rejects.toThrow(/not a valid elicitation result/);
      expect(effects.greet).toBeUndefined();
    });

    test('an expired state (injected clock): refused', async () => {
      const { toolkit } = askingToolkit();
      let now = 5_000_000;
      const call = caller(toolkit, { now: () => now, ttlMs: 1_000 });
      const first = questions(await call('greet', {}));
      now += 1_000;
      await expect(call('greet', {}, { requestState: first.requestState })).rejects.toThrow(/expired/);
    });

    test('a missing answer is asked again (a fresh state), not an error', async () => {
      const { toolkit } = askingToolkit();
      const call = caller(toolkit);
      const first = questions(await call('greet', {}));
      const second = questions(await call('greet', {}, { requestState: first.requestState, inputResponses: {} }));
      expect(Object.keys(second.inputRequests)).toEqual(Object.keys(first.inputRequests));
      expect(second.requestState).not.toBe(first.requestState);
    });
  });
});
