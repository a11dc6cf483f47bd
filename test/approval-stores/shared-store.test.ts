import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { concatMap, filter, firstValueFrom, timeout, timer } from 'rxjs';
import { ApprovalManager, isPendingApprovalResult, type PendingApproval, type Toolkit } from '../../src';
import { postgresApprovalStore } from '../../src/postgres';
import { redisApprovalStore } from '../../src/redis';
import { secretForms } from '../../src/executor/presets/secret-forms';
import { approvalDigest } from '../../src/approval/approval-store';
import { freePort } from '../bullmq/fixtures/processes';
import { rejection } from '../support/errors';
import { POSTGRES, dropSchema, requirePostgres, uniqueSchema } from '../support/postgres';
import { REDIS, cleanRedis, requireRedis, uniqueQueue } from '../support/redis';
import { closeServices, listed, openStore, replica, runnersOf, runsOf, SECRET, userContext, type StoreSpec } from './fixtures/services';

/**
 * Several replicas (each a toolkit and an `ApprovalManager`) share one real store: what one holds,
 * every one lists and may decide; the call runs once, as its requester; what was changed in the
 * store after it was shown, or decided, never runs.
 */

const runsPrefix = uniqueQueue('approval-runs');
process.env.TW_RUNS = runsPrefix;

afterAll(async () => {
  closeServices();
  await cleanRedis(`${runsPrefix}:*`);
});

/** Reads and writes a stored record behind the managers' backs, as someone with access to the database could. */
interface Backdoor {
  read(id: string): Promise<{ text: string; digest: string }>;
  write(id: string, text: string, digest?: string): Promise<void>;
  /** Every byte the store keeps, as text. */
  dump(): Promise<string>;
  close(): Promise<void>;
}

function redisBackdoor(prefix: string): Backdoor {
  const redis = new Redis({ ...REDIS, maxRetriesPerRequest: 1 });
  const key = (name: string): string => `{${prefix}}:${name}`;
  return {
    async read(id) {
      return { text: (await redis.hget(key('records'), id))!, digest: (await redis.hget(key('digests'), id))! };
    },
    async write(id, text, digest) {
      await redis.hset(key('records'), id, text);
      if (digest !== undefined) await redis.hset(key('digests'), id, digest);
    },
    async dump() {
      const keys = await redis.keys(`{${prefix}}:*`);
      const parts: string[] = [];
      for (const k of keys) {
        const type = await redis.type(k);
        if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(k)));
        else if (type === 'list') parts.push(...(await redis.lrange(k, 0, -1)));
        else if (type === 'zset') parts.push(...(await redis.zrange(k, 0, -1)));
        else if (type === 'set') parts.push(...(await redis.smembers(k)));
        else parts.push(String(await redis.get(k)));
      }
      return parts.join('\n');
    },
    async close() {
      redis.disconnect();
      await cleanRedis(`{${prefix}}:*`);
    },
  };
}

function postgresBackdoor(schema: string): Backdoor {
  const pool = new Pool({ ...POSTGRES, max: 1 });
  return {
    async read(id) {
      const { rows } = await pool.query<{ record: string; digest: string }>(`SELECT record, digest FROM "${schema}".toolwright_approvals WHERE id = $1`, [id]);
      return { text: rows[0]!.record, digest: rows[0]!.digest };
    },
    async write(id, text, digest) {
      await pool.query(`UPDATE "${schema}".toolwright_approvals SET record = $2, digest = coalesce($3, digest) WHERE id = $1`, [id, text, digest ?? null]);
    },
    async dump() {
      const calls = await pool.query(`SELECT t::text AS row FROM "${schema}".toolwright_approvals t`);
      const remembered = await pool.query(`SELECT t::text AS row FROM "${schema}".toolwright_approvals_remembered t`);
      return [...calls.rows, ...remembered.rows].map((r: { row: string }) => r.row).join('\n');
    },
    async close() {
      await pool.end();
      await dropSchema(schema);
    },
  };
}

/** Resolves once `approvals` no longer lists `id`. */
function unlisted(approvals: ApprovalManager, id: string): Promise<unknown> {
  return firstValueFrom(
    approvals.pending$.pipe(
      filter((list) => !list.some((p) => p.id === id)),
      timeout({ first: 10_000, with: () => Promise.reject(new Error(`approval ${id} stayed listed`)) }),
    ),
  );
}

let calls = 0;

/** Makes a payment call as `user` in session `session` on `toolkit`; returns its approval id and call id. */
async function holdPayment(toolkit: Toolkit, user: string, amount = 120, session = `s-${user}`): Promise<{ id: string; callId: string }> {
  const callId = `${runsPrefix}-call-${++calls}`;
  const result = await toolkit.session(session).callTool({ id: callId, name: 'send_payment', arguments: { amount, to: 'bob', ref: callId } }, { context: userContext(user) });
  if (!isPendingApprovalResult(result)) throw new Error(`the call was not held: ${result.forLLM}`);
  return { id: result.data.approvalId, callId };
}

describe.each(['redis', 'postgres'] as const)('approvals shared through %s', (kind) => {
  let spec: StoreSpec;
  let backdoor: Backdoor;
  const opened: (() => Promise<void>)[] = [];

  /** A replica on this test's store (closed after the test). */
  function startReplica(port?: number, signingKey?: string): ReturnType<typeof replica> & { store: ReturnType<typeof openStore>['store'] } {
    const { store, close } = openStore(port === undefined ? spec : { ...spec, port });
    opened.push(close);
    return { ...replica(store, { signingKey, onCallbackError: (error) => reported.push(error) }), store };
  }
  let reported: unknown[] = [];

  beforeAll(async () => {
    await (kind === 'redis' ? requireRedis() : requirePostgres());
  });

  beforeEach(() => {
    reported = [];
    spec = { kind, name: kind === 'redis' ? uniqueQueue('approvals') : uniqueSchema('approvals') };
    backdoor = kind === 'redis' ? redisBackdoor(spec.name) : postgresBackdoor(spec.name);
  });

  afterEach(async () => {
    for (const close of opened.splice(0)) await close();
    await backdoor.close();
  });

  it('a call held on one replica is listed on another and approved there: it runs once, as its requester, and is audited', async () => {
    const a = startReplica();
    const b = startReplica();
    const { id, callId } = await holdPayment(a.toolkit, 'ann');
    const shown = await listed(b.approvals, id);
    expect(shown).toMatchObject({ toolName: 'send_payment', arguments: { amount: 120, to: 'bob', ref: callId }, sessionId: 's-ann', principal: 'ann', digest: expect.stringMatching(/^sha256:/) });
    expect(JSON.stringify(shown)).not.toContain(SECRET);

    const result = await b.approvals.approve(id, { toolkit: b.toolkit, digest: shown.digest, decidedBy: 'operator-7' });
    expect(result.isError).toBe(false);
    expect(result.forLLM).toContain('for ann@t1');
    expect(await runsOf(callId)).toBe(1);
    // the requester's context rebuilt from the store, its principal and session: not the approver's
    expect((await runnersOf(callId))[0]).toMatch(/^ann@t1\|ann\|payments:send\|\d+$/);
    await unlisted(a.approvals, id);

    const again = await rejection(a.approvals.approve(id, { toolkit: a.toolkit }), 'APPROVAL_NOT_PENDING');
    expect(again.message).toContain('already approved');
    expect(await runsOf(callId)).toBe(1);
    const [entry] = await a.store.audit({ limit: 5 });
    expect(entry).toEqual({ id, decision: 'approved', decidedBy: 'operator-7', decidedAt: expect.any(Number), toolName: 'send_payment', callId, digest: shown.digest, sessionId: 's-ann', principal: 'ann' });
  });

  it('two replicas approving at the same instant: one run, one APPROVAL_NOT_PENDING; approve against reject: one outcome', async () => {
    const [a, b, c] = [startReplica(), startReplica(), startReplica()];
    const first = await holdPayment(a.toolkit, 'ann');
    await Promise.all([listed(b.approvals, first.id), listed(c.approvals, first.id)]);
    const both = await Promise.allSettled([b.approvals.approve(first.id, { toolkit: b.toolkit }), c.approvals.approve(first.id, { toolkit: c.toolkit })]);
    expect(both.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    expect(both.find((s) => s.status === 'rejected')).toMatchObject({ reason: { code: 'APPROVAL_NOT_PENDING' } });
    expect(await runsOf(first.callId)).toBe(1);

    const second = await holdPayment(a.toolkit, 'ann');
    await Promise.all([listed(b.approvals, second.id), listed(c.approvals, second.id)]);
    const race = await Promise.allSettled([b.approvals.approve(second.id, { toolkit: b.toolkit }), c.approvals.reject(second.id, 'not today')]);
    expect(race.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    const approved = race[0].status === 'fulfilled';
    expect(await runsOf(second.callId)).toBe(approved ? 1 : 0);
    const [entry] = await a.store.audit({ limit: 1 });
    expect(entry).toMatchObject({ id: second.id, decision: approved ? 'approved' : 'rejected' });
  });

  it('a record changed in the store after it was shown is refused, however the change was made; nothing runs', async () => {
    const a = startReplica();
    const b = startReplica();
    const { id, callId } = await holdPayment(a.toolkit, 'ann', 120);
    const shown = await listed(b.approvals, id);
    const stored = await backdoor.read(id);
    const forged = JSON.parse(stored.text) as { approval: PendingApproval; context?: Record<string, unknown> };
    const raised = { ...forged, approval: { ...forged.approval, arguments: { amount: 99_000, to: 'mallory', ref: callId } } };

    // arguments changed, digest left: the record no longer matches what was held
    await backdoor.write(id, JSON.stringify(raised));
    const naive = await rejection(b.approvals.approve(id, { toolkit: b.toolkit }), 'APPROVAL_CHANGED');
    expect(naive.message).toContain('changed in the store');

    // digest recomputed too: still not the call that was shown (or listed here)
    const { digest: _old, ...fields } = raised.approval;
    await backdoor.write(id, JSON.stringify(raised), approvalDigest(fields, raised.context));
    await rejection(b.approvals.approve(id, { toolkit: b.toolkit, digest: shown.digest }), 'APPROVAL_CHANGED');
    await rejection(b.approvals.approve(id, { toolkit: b.toolkit }), 'APPROVAL_CHANGED');
    await rejection(b.approvals.reject(id, 'no', { digest: shown.digest }), 'APPROVAL_CHANGED');
    expect(await runsOf(callId)).toBe(0);
  });

  it('a decided call never runs again: not from a stale listing, not re-held from an old copy', async () => {
    const a = startReplica();
    const b = startReplica();
    const { id, callId } = await holdPayment(a.toolkit, 'ann');
    await listed(b.approvals, id);
    const copy = await backdoor.read(id);
    await a.approvals.reject(id, 'too much', { decidedBy: 'operator-1' });
    await rejection(b.approvals.approve(id, { toolkit: b.toolkit }), 'APPROVAL_NOT_PENDING');
    const replay = JSON.parse(copy.text) as { approval: PendingApproval; context?: Record<string, unknown> };
    expect(await a.store.hold({ ...replay, digest: copy.digest })).toBe(false);
    await rejection(startReplica().approvals.approve(id, { toolkit: b.toolkit }), 'APPROVAL_NOT_PENDING');
    expect(await runsOf(callId)).toBe(0);
    expect((await a.store.audit())[0]).toMatchObject({ id, decision: 'rejected', reason: 'too much', decidedBy: 'operator-1' });
  });

  it('remembered decisions are shared: an approval remembered for a principal on one replica covers its calls on another, and no one else', async () => {
    const a = startReplica();
    const b = startReplica();
    const { id } = await holdPayment(a.toolkit, 'ann');
    await listed(b.approvals, id);
    await b.approvals.approve(id, { toolkit: b.toolkit, remember: 'principal' });
    const callId = `${runsPrefix}-${kind}-remembered`;
    const next = await a.toolkit.session('s-ann-2').callTool({ id: callId, name: 'send_payment', arguments: { amount: 5, to: 'bob', ref: callId } }, { context: userContext('ann') });
    expect(next.isError).toBe(false);
    expect(isPendingApprovalResult(next)).toBe(false);
    expect(await runsOf(callId)).toBe(1);
    const eve = await a.toolkit.session('s-eve').callTool({ id: `${callId}-eve`, name: 'send_payment', arguments: { amount: 5, to: 'bob', ref: `${callId}-eve` } }, { context: userContext('eve') });
    expect(isPendingApprovalResult(eve)).toBe(true);
  });

  it('a closed session withdraws its held calls and forgets its remembered decisions in the store: no replica runs them later', async () => {
    const a = startReplica();
    const b = startReplica();
    const { id: remembered } = await holdPayment(a.toolkit, 'ann', 1, 's-closing');
    await a.approvals.approve(remembered, { remember: 'session' });
    const { id, callId } = await holdPayment(a.toolkit, 'ann', 2, 's-other');
    await listed(b.approvals, id);
    const key = JSON.stringify(['session', 's-closing', 'ann', 'send_payment']);
    expect(await b.store.recall([key])).toEqual([{ sessionId: 's-closing', principal: 'ann', toolName: 'send_payment', decision: 'approved' }]);
    a.toolkit.session('s-other').close();
    a.toolkit.session('s-closing').close();
    await unlisted(b.approvals, id);
    await rejection(b.approvals.approve(id, { toolkit: b.toolkit }), 'APPROVAL_NOT_PENDING');
    expect(await runsOf(callId)).toBe(0);
    expect((await a.store.audit({ limit: 5 })).find((entry) => entry.id === id)).toMatchObject({ decision: 'rejected', reason: 'the session ended' });
    await firstValueFrom(
      timer(0, 50).pipe(
        concatMap(() => b.store.recall([key])),
        filter(([decision]) => decision === undefined),
        timeout(10_000),
      ),
    );
  });

  it('an unreachable store: the call is not held and does not run, a decision fails clearly, and nothing is lost for the replicas that reach it', async () => {
    const a = startReplica();
    const down = startReplica(await freePort());
    const result = await down.toolkit.session('s-ann').callTool({ id: `${runsPrefix}-${kind}-down`, name: 'send_payment', arguments: { amount: 1, to: 'bob', ref: `${runsPrefix}-${kind}-down` } }, { context: userContext('ann') });
    expect(result).toMatchObject({ isError: true, error: { code: 'APPROVAL_STORE_FAILED' } });
    expect(result.forLLM).toMatch(/approval store is unavailable\. The call did not run/);
    expect(result.forLLM).not.toContain('127.0.0.1');
    expect(reported.map(String).join('\n')).toMatch(kind === 'redis' ? /could not be held because the store failed: Redis at 127\.0\.0\.1/ : /could not be held because the store failed: PostgreSQL failed/);
    expect(await runsOf(`${runsPrefix}-${kind}-down`)).toBe(0);

    const { id, callId } = await holdPayment(a.toolkit, 'ann');
    const failed = await rejection(down.approvals.approve(id, { toolkit: down.toolkit }), 'APPROVAL_STORE_FAILED');
    expect(failed.message).toMatch(/Nothing ran; the call stays pending\.$/);
    expect(failed.message).toMatch(kind === 'redis' ? /Redis at 127\.0\.0\.1:\d+ failed to read/ : /PostgreSQL failed to read a pending call .*ECONNREFUSED 127\.0\.0\.1:\d+/);
    expect(failed.message.length).toBeLessThan(700);
    await rejection(down.approvals.refresh(), 'APPROVAL_STORE_FAILED');
    expect(await runsOf(callId)).toBe(0);

    const b = startReplica();
    await listed(b.approvals, id);
    await b.approvals.approve(id, { toolkit: b.toolkit });
    expect(await runsOf(callId)).toBe(1);
  });

  it('forged records: an undeclared context name or a malformed principal is refused before anything runs; garbage is never listed', async () => {
    const a = startReplica();
    const b = startReplica();
    for (const context of [{ constructor: { id: 'x' } }, { 'toolwright:principal': { id: 'root', scopes: 'admin' } }]) {
      const { id, callId } = await holdPayment(a.toolkit, 'ann');
      const stored = JSON.parse((await backdoor.read(id)).text) as { approval: PendingApproval };
      const { digest: _d, ...fields } = stored.approval;
      await backdoor.write(id, JSON.stringify({ approval: stored.approval, context }), approvalDigest(fields, context));
      // a replica that never listed the genuine record: the forged one is self-consistent
      const fresh = startReplica();
      await rejection(fresh.approvals.approve(id, { toolkit: fresh.toolkit }), 'INVALID_CONTEXT');
      expect(await runsOf(callId)).toBe(0);
    }
    const { id } = await holdPayment(a.toolkit, 'ann');
    await backdoor.write(id, '{"approval": [1, 2');
    await b.approvals.refresh();
    expect(b.approvals.get(id)).toBeUndefined();
    await rejection(b.approvals.approve(id, { toolkit: b.toolkit }), 'APPROVAL_CHANGED');
  });

  it('with a signingKey, no record forged or changed without the key runs, however self-consistent; the key is never stored', async () => {
    const key = 'sign-7f3a9c2e51d84b06a1e9c7d3f5b2a8e4';
    const a = startReplica(undefined, key);
    const b = startReplica(undefined, key);
    const { id, callId } = await holdPayment(a.toolkit, 'ann');
    const shown = await listed(b.approvals, id);
    expect(shown.digest).toMatch(/^hmac-sha256:/);
    const stored = JSON.parse((await backdoor.read(id)).text) as { approval: PendingApproval; context?: Record<string, unknown> };
    const { digest: _d, ...fields } = stored.approval;
    // the requester swapped for an administrator, digests recomputed without the key and with a guessed one
    const context = { ...stored.context, 'toolwright:principal': { id: 'root', scopes: ['payments:send', 'admin'], claims: {} } };
    for (const digest of [approvalDigest(fields, context), approvalDigest(fields, context, 'x'.repeat(32))]) {
      await backdoor.write(id, JSON.stringify({ approval: stored.approval, context }), digest);
      const fresh = startReplica(undefined, key);
      await rejection(fresh.approvals.approve(id, { toolkit: fresh.toolkit }), 'APPROVAL_CHANGED');
      await fresh.approvals.refresh();
      expect(fresh.approvals.get(id)).toBeUndefined();
    }
    expect(await runsOf(callId)).toBe(0);
    for (const part of [key, key.slice(0, 8), key.slice(-8)]) expect(await backdoor.dump()).not.toContain(part);
    expect(() => replica(a.store, { signingKey: 'short' })).toThrow(/signingKey must be .* at least 32/);
  });

  it('no preset value reaches the store, in any encoding', async () => {
    const a = startReplica();
    const { id } = await holdPayment(a.toolkit, 'ann');
    await a.approvals.approve(id, { remember: 'session' });
    const bytes = await backdoor.dump();
    expect(bytes).toContain('send_payment');
    for (const form of secretForms(SECRET)) expect(bytes).not.toContain(form);
    expect(bytes).not.toContain(SECRET.slice(0, 8));
  });
});

describe('approval store options', () => {
  it('refuse what cannot work, naming the fix, before anything connects', async () => {
    const pool = new Pool({ ...POSTGRES, max: 1 });
    const schema = uniqueSchema('options');
    expect(() => redisApprovalStore({ connection: null as never })).toThrow(/connection must be ioredis options/);
    expect(() => redisApprovalStore({ connection: REDIS, prefix: 'a{b}' })).toThrow(/without \{ or \}/);
    expect(() => postgresApprovalStore({ pool: {} as never })).toThrow(/pool must be a pg Pool/);
    expect(() => postgresApprovalStore({ pool, schema: 'x"; DROP TABLE y; --' })).toThrow(/schema must be a plain SQL identifier/);
    expect(() => postgresApprovalStore({ pool, table: 'a'.repeat(49) })).toThrow(/table must be a plain SQL identifier/);
    const store = postgresApprovalStore({ pool, schema });
    expect(store.schemaSql).toContain(`CREATE TABLE IF NOT EXISTS "${schema}"."toolwright_approvals"`);
    expect(() => new ApprovalManager({ store, decisions: { claim: () => true } })).toThrow(/store or decisions, not both/);
    const approvals = new ApprovalManager({ store });
    expect(() => approvals.restore('{"version":1,"pending":[]}')).toThrow(/keeps its state in its store/);
    await store.close();
    await pool.end();
    await dropSchema(schema);
  });
});
