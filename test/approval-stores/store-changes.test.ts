import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { ApprovalManager, isPendingApprovalResult, Toolkit, type ApprovalDecision, type ApprovalManagerOptions } from '../../src';
import { postgresApprovalStore } from '../../src/postgres';
import { redisApprovalStore } from '../../src/redis';
import { freePort } from '../bullmq/fixtures/processes';
import { Closer } from '../support/mcp';
import { AskingClient, connectAsking } from '../support/mcp-asking';
import { POSTGRES, dropSchema, requirePostgres, uniqueSchema } from '../support/postgres';
import { REDIS, cleanRedis, requireRedis, uniqueQueue } from '../support/redis';
import { closeServices, listed, openStore, PaymentService, replica, runsOf, SECRET, userContext, type StoreSpec } from './fixtures/services';

/**
 * What replicas sharing a real store learn from its announcements: a held call is read and listed
 * by itself (not the whole list again); a decision taken anywhere goes out on every replica's
 * `decisions$` with the result; an announcement someone forges changes nothing; decisions taken
 * through the requester's MCP client are audited in the store; decided calls are purged after
 * their retention, pending ones never.
 */

const runsPrefix = uniqueQueue('approval-changes-runs');
process.env.TW_RUNS = runsPrefix;
const closer = new Closer();

afterAll(async () => {
  closeServices();
  await cleanRedis(`${runsPrefix}:*`);
});

/** The next decision on `approvals.decisions$` about `id`. */
function decisionOn(approvals: ApprovalManager, id: string): Promise<ApprovalDecision> {
  return firstValueFrom(
    approvals.decisions$.pipe(
      filter((d) => d.approval.id === id),
      timeout({ first: 10_000, with: () => Promise.reject(new Error(`no decision on ${id}`)) }),
    ),
  );
}

let calls = 0;
async function holdPayment(toolkit: Toolkit, user = 'ann'): Promise<{ id: string; ref: string }> {
  const ref = `${runsPrefix}-call-${++calls}`;
  const result = await toolkit.session(`s-${user}`).callTool({ id: ref, name: 'send_payment', arguments: { amount: 5, to: 'bob', ref } }, { context: userContext(user) });
  if (!isPendingApprovalResult(result)) throw new Error(`the call was not held: ${result.forLLM}`);
  return { id: result.data.approvalId, ref };
}

/** Announces `text` on the store's change channel, as anyone who can write to it could. */
async function announce(spec: StoreSpec, text: string): Promise<void> {
  if (spec.kind === 'redis') {
    const redis = new Redis({ ...REDIS, maxRetriesPerRequest: 1 });
    await redis.publish(`{${spec.name}}:changed`, text);
    redis.disconnect();
    return;
  }
  const { createHash } = await import('node:crypto');
  const channel = `tw_${createHash('sha256').update(`${spec.name}.toolwright_approvals`).digest('hex').slice(0, 24)}`;
  const pool = new Pool({ ...POSTGRES, max: 1 });
  await pool.query('SELECT pg_notify($1, $2)', [channel, text]);
  await pool.end();
}

/** A store of `spec` that keeps decided calls `decidedMs`. */
function retainingStore(spec: StoreSpec, decidedMs: number) {
  if (spec.kind === 'redis') {
    const store = redisApprovalStore({ connection: REDIS, prefix: spec.name, retention: { decidedMs } });
    return { store, close: () => store.close() };
  }
  const pool = new Pool({ ...POSTGRES, max: 2 });
  const store = postgresApprovalStore({ pool, schema: spec.name, retention: { decidedMs } });
  return {
    store,
    close: async () => {
      await store.close();
      await pool.end();
    },
  };
}

describe.each(['redis', 'postgres'] as const)('store announcements through %s', (kind) => {
  let spec: StoreSpec;
  const opened: (() => Promise<void>)[] = [];
  let reported: unknown[] = [];

  function startReplica(extra: ApprovalManagerOptions = {}) {
    const { store, close } = openStore(spec);
    opened.push(close);
    return { ...replica(store, { onCallbackError: (error) => reported.push(error), ...extra }), store };
  }

  beforeAll(async () => {
    await (kind === 'redis' ? requireRedis() : requirePostgres());
  });
  beforeEach(() => {
    reported = [];
    spec = { kind, name: kind === 'redis' ? uniqueQueue('approval-changes') : uniqueSchema('approval_changes') };
  });
  afterEach(async () => {
    await closer.closeAll();
    for (const close of opened.splice(0)) await close();
    if (kind === 'redis') await cleanRedis(`{${spec.name}}:*`);
    else await dropSchema(spec.name);
  });

  it('a call held elsewhere is read by itself: the pending list is not reloaded', async () => {
    const a = startReplica();
    const b = startReplica();
    // b is subscribed once it lists a call held on a; its start-up reload is over once refresh() resolves
    await listed(b.approvals, (await holdPayment(a.toolkit)).id);
    await b.approvals.refresh();
    const list = jest.spyOn(b.store, 'list');
    const get = jest.spyOn(b.store, 'get');
    const held = [];
    for (let i = 0; i < 5; i++) held.push(await holdPayment(a.toolkit));
    for (const { id } of held) await listed(b.approvals, id);
    expect(list).not.toHaveBeenCalled();
    expect(get).toHaveBeenCalledTimes(5);
    expect(reported).toEqual([]);
  });

  it('a replica whose list was full lists the calls it skipped once a call leaves it', async () => {
    const a = startReplica();
    const b = startReplica({ maxPending: 1 });
    await b.approvals.refresh();
    const first = await holdPayment(a.toolkit);
    await listed(b.approvals, first.id);
    const second = await holdPayment(a.toolkit, 'bo');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(b.approvals.pending().map((p) => p.id)).toEqual([first.id]);
    await b.approvals.approve(first.id, { toolkit: b.toolkit });
    await listed(b.approvals, second.id);
  });

  it('every replica’s decisions$ gets a decision taken on another: an approval with its result, a rejection with its reason', async () => {
    const a = startReplica();
    const b = startReplica();
    const c = startReplica();
    const approved = await holdPayment(a.toolkit);
    const rejected = await holdPayment(a.toolkit);
    const shown = await listed(c.approvals, approved.id);
    await listed(b.approvals, approved.id);
    await listed(c.approvals, rejected.id);
    const onA = decisionOn(a.approvals, approved.id);
    const onC = decisionOn(c.approvals, approved.id);
    const result = await b.approvals.approve(approved.id, { toolkit: b.toolkit, decidedBy: 'op-1' });
    for (const decision of await Promise.all([onA, onC])) {
      expect(decision).toEqual({ approval: shown, decision: 'approved', result, decidedAt: expect.any(Number) });
    }
    expect(await runsOf(approved.ref)).toBe(1);
    const rejectedOn = [decisionOn(a.approvals, rejected.id), decisionOn(c.approvals, rejected.id)];
    const answer = await b.approvals.reject(rejected.id, 'over budget', { decidedBy: 'op-1' });
    for (const decision of await Promise.all(rejectedOn)) expect(decision).toMatchObject({ decision: 'rejected', result: answer });
    expect(answer.forLLM).toContain('over budget');
    expect(a.approvals.pending()).toEqual([]);
    expect(c.approvals.pending()).toEqual([]);
    expect(reported).toEqual([]);
  });

  it('a forged announcement changes nothing: a pending call stays listed, no decision is published, a forged hold lists nothing', async () => {
    const a = startReplica();
    const b = startReplica();
    const { id, ref } = await holdPayment(a.toolkit);
    await listed(b.approvals, id);
    const published: ApprovalDecision[] = [];
    b.approvals.decisions$.subscribe((d) => published.push(d));
    await announce(spec, `decided:${id}`);
    await announce(spec, `finished:${id}`);
    await announce(spec, 'held:appr_forged');
    await announce(spec, `decided:${'x'.repeat(5_000)}`);
    await b.approvals.refresh();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(b.approvals.pending().map((p) => p.id)).toEqual([id]);
    expect(published).toEqual([]);
    expect(await runsOf(ref)).toBe(0);
    await b.approvals.approve(id, { toolkit: b.toolkit });
    expect(await runsOf(ref)).toBe(1);
  });

  it('decisions taken through the requester’s MCP client are audited in the store; a known id is not decided twice', async () => {
    const { store } = openStore(spec);
    opened.push(() => store.close());
    const toolkit = new Toolkit({ context: userContext('ann') });
    toolkit.registration().tool(PaymentService).presetParameters({ send_payment: { apiKey: SECRET } }).apply();
    const approvals = new ApprovalManager({ tools: ['send_payment'], store, elicitation: true, principal: () => 'ann' });
    toolkit.use(approvals.hook);
    const answers: ('accept' | 'decline')[] = ['accept', 'decline'];
    const { client } = await connectAsking(toolkit, closer, new AskingClient({ elicitation: {} }, { elicit: () => ({ action: answers.shift() }) }));
    const ref = `${runsPrefix}-asked-${++calls}`;
    await client.call('send_payment', { amount: 9, to: 'bob', ref });
    await client.call('send_payment', { amount: 10, to: 'bob', ref: `${ref}-2` });
    expect(await runsOf(ref)).toBe(1);
    expect(await runsOf(`${ref}-2`)).toBe(0);
    const audit = await store.audit({ limit: 5 });
    expect(audit.map((entry) => [entry.decision, entry.via, entry.principal, entry.decidedBy, entry.toolName])).toEqual([
      ['rejected', 'elicitation', 'ann', 'ann', 'send_payment'],
      ['approved', 'elicitation', 'ann', 'ann', 'send_payment'],
    ]);
    expect(await store.decisionOf(audit[1]!.id)).toBe('approved');
    expect(await store.list()).toEqual([]);
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it('a store that does not answer when the client accepts: the decision is not taken, the call does not run, the client learns why', async () => {
    const { store, close } = openStore({ ...spec, port: await freePort() });
    opened.push(close);
    const toolkit = new Toolkit({ context: userContext('ann') });
    toolkit.registration().tool(PaymentService).presetParameters({ send_payment: { apiKey: SECRET } }).apply();
    const reported: unknown[] = [];
    const approvals = new ApprovalManager({ tools: ['send_payment'], store, elicitation: true, principal: () => 'ann', onCallbackError: (error) => reported.push(error) });
    toolkit.use(approvals.hook);
    const { client } = await connectAsking(toolkit, closer, new AskingClient({ elicitation: {} }, { elicit: () => ({ action: 'accept' }) }));
    const ref = `${runsPrefix}-unreachable-${++calls}`;
    const answer = await client.call('send_payment', { amount: 9, to: 'bob', ref });
    expect(answer.isError).toBe(true);
    const text = JSON.stringify(answer.content);
    expect(text).toContain("stopped by hook 'approval': The approval store is unavailable, so the answer to the question about tool 'send_payment' could not be recorded. The call did not run");
    // the operator learns why; the model never sees the store's address
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|tw_|Redis at/);
    expect(String(reported[0])).toContain('could not be recorded because the store failed');
    expect(await runsOf(ref)).toBe(0);
  });

  it('retention: decided calls older than it are purged (tombstone, audit record, result), pending calls never', async () => {
    const old = Date.now() - 5_000;
    const { store, close } = retainingStore(spec, 1_000);
    opened.push(close);
    const past = replica(store, { now: () => old });
    const decided = await holdPayment(past.toolkit);
    const pending = await holdPayment(past.toolkit);
    await past.approvals.approve(decided.id, { toolkit: past.toolkit });
    // the decision purged in the background what was older than the retention: this decision itself
    for (let i = 0; i < 100 && (await store.decisionOf(decided.id)) !== undefined; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await store.decisionOf(decided.id)).toBeUndefined();
    expect(await store.outcome!(decided.id)).toBeUndefined();
    expect((await store.audit()).map((entry) => entry.id)).not.toContain(decided.id);
    expect((await store.list()).map((record) => record.approval.id)).toEqual([pending.id]);
    expect(await store.purge()).toBe(0);
  });

  it('refuses a retention that cannot work', () => {
    expect(() => redisApprovalStore({ connection: REDIS, retention: { decidedMs: 10 } })).toThrow(/retention.decidedMs must be a number of milliseconds of at least 1000/);
    expect(() => postgresApprovalStore({ pool: new Pool(POSTGRES), retention: { decidedMs: Number.NaN } })).toThrow(/retention.decidedMs/);
  });
});
