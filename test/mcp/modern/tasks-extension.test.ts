import { ProtocolError } from '@modelcontextprotocol/server';
import { memoryMcpStateStore, type McpStateStore } from '../../../src/mcp';
import { TasksExtension, type DetailedTask, type TaskRun } from '../../../src/mcp/server/modern/tasks-extension';
import { redisMcpStateStore, type RedisMcpStateStore } from '../../../src/redis';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../../support/redis';

/**
 * The tasks extension's state machine on a shared store, as two processes of a fleet see it (two
 * TasksExtension instances on one store), on the in-memory store and on the machine's Redis; and
 * what an attacker tries: guessed ids, another principal's id, forged store entries, the bound.
 */

const SECRET = 'a-fleet-shared-secret-of-enough-length';
const POLL = 20;
const prefix = `${uniqueQueue('tasks')}:`;
const redisStores: RedisMcpStateStore[] = [];
const hosts: TasksExtension[] = [];

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await Promise.all(redisStores.map((s) => s.close()));
  await cleanRedis(`${prefix}*`);
});

/** Resolves once `check` holds (each test's own deadline bounds the wait). */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
}

const code = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (e instanceof ProtocolError ? { code: e.code, message: e.message } : e),
  );

/** A call that waits for `release` (or its signal) and then answers `text`. */
function gatedCall(text = 'done') {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const seen: { signal?: AbortSignal } = {};
  const run = async (task: TaskRun) => {
    seen.signal = task.signal;
    await Promise.race([gate, new Promise((_, reject) => task.signal.addEventListener('abort', () => reject(task.signal.reason as Error)))]);
    return { content: [{ type: 'text', text }] };
  };
  return { run, release, seen };
}

describe.each([
  ['memory', (): McpStateStore => memoryMcpStateStore()],
  ['redis', (): McpStateStore => {
    const store = redisMcpStateStore({ connection: REDIS, prefix });
    redisStores.push(store);
    return store;
  }],
])('the tasks extension on the %s store', (kind, makeStore) => {
  let store: McpStateStore;
  let one: TasksExtension;
  let two: TasksExtension;
  const forged: string[] = [];
  const host = (options = {}, secret = SECRET) => {
    const made = new TasksExtension(ProtocolError, store, secret, { pollIntervalMs: POLL, ...options }, (key) => forged.push(key));
    hosts.push(made);
    return made;
  };

  beforeAll(async () => {
    if (kind === 'redis') await requireRedis();
  });

  beforeEach(() => {
    store = makeStore();
    forged.length = 0;
    [one, two] = [host(), host()];
  });

  it('answers a flat CreateTaskResult only once the task is stored, and inlines the result on tasks/get from any process', async () => {
    const call = gatedCall('42');
    const created = await one.create('alice', call.run);
    expect(created).toEqual({ resultType: 'task', taskId: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), status: 'working', createdAt: expect.any(String), lastUpdatedAt: created.createdAt, ttlMs: 3_600_000, pollIntervalMs: POLL });
    const working = await two.get('alice', created.taskId);
    expect(working).toMatchObject({ resultType: 'complete', taskId: created.taskId, status: 'working' });
    expect(working).not.toHaveProperty('result');
    call.release();
    let done: DetailedTask | undefined;
    await until(async () => (done = await two.get('alice', created.taskId)).status !== 'working');
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: '42' }] } });
    expect(done).not.toHaveProperty('requestState');
  });

  it('ends a call that threw as failed with an error that says nothing of the cause; a protocol error keeps its code', async () => {
    const a = await one.create(undefined, () => Promise.reject(new Error('db password is hunter2')));
    const b = await one.create(undefined, () => Promise.reject(new ProtocolError(-32001, 'the job panicked')));
    let seen: DetailedTask[] = [];
    await until(async () => (seen = await Promise.all([two.get(undefined, a.taskId), two.get(undefined, b.taskId)])).every((t) => t.status === 'failed'));
    expect(seen[0]).toMatchObject({ error: { code: -32603, message: 'The task failed inside the server.' } });
    expect(JSON.stringify(seen[0])).not.toContain('hunter2');
    expect(seen[1]).toMatchObject({ error: { code: -32001, message: 'the job panicked' } });
    expect(seen[0]).not.toHaveProperty('result');
  });

  it("cancels from another process: the running call's signal fires, the status is cancelled, and a second cancel acks the same", async () => {
    const call = gatedCall();
    const { taskId } = await one.create('alice', call.run);
    await until(() => call.seen.signal !== undefined);
    expect(await two.cancel('alice', taskId)).toEqual({ resultType: 'complete' });
    await until(() => call.seen.signal?.aborted === true);
    expect((await one.get('alice', taskId)).status).toBe('cancelled');
    expect(await two.cancel('alice', taskId)).toEqual({ resultType: 'complete' });
    call.release();
  });

  it('parks a task input_required, takes partial answers on any process, and resumes once every request is answered', async () => {
    let answers: unknown[] = [];
    const { taskId } = await one.create('alice', async (task) => {
      answers = await Promise.all([task.requestInput({ method: 'elicitation/create', params: { message: 'a?' } }), task.requestInput({ method: 'elicitation/create', params: { message: 'b?' } })]);
      return { content: [{ type: 'text', text: JSON.stringify(answers) }] };
    });
    let parked: DetailedTask | undefined;
    await until(async () => Object.keys((parked = await two.get('alice', taskId)).inputRequests ?? {}).length === 2);
    expect(parked?.status).toBe('input_required');
    const [first, second] = Object.keys(parked?.inputRequests ?? {});
    expect(await two.update('alice', taskId, { [first]: { action: 'accept', content: { v: 1 } }, unknown: { x: 1 } })).toEqual({ resultType: 'complete' });
    const partial = await two.get('alice', taskId);
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests ?? {})).toEqual([second]);
    await two.update('alice', taskId, { [second]: { action: 'accept', content: { v: 2 } } });
    await until(async () => (await two.get('alice', taskId)).status === 'completed');
    expect(answers).toEqual([{ action: 'accept', content: { v: 1 } }, { action: 'accept', content: { v: 2 } }]);
  });

  it('answers a guessed, enumerated or mangled id exactly as one that never existed', async () => {
    const { taskId } = await one.create('alice', gatedCall().run);
    const unknown = await code(two.get('alice', 'no-such-task'));
    expect(unknown).toEqual({ code: -32602, message: expect.stringMatching(/^Task not found/) });
    const mangled = [taskId.slice(0, -1) + (taskId.endsWith('A') ? 'B' : 'A'), taskId.toUpperCase(), `${taskId} `, '', 'x'.repeat(10_000), 42, null, { taskId }];
    for (const id of mangled) {
      for (const method of ['get', 'cancel'] as const) expect(await code(two[method]('alice', id))).toEqual(unknown);
      expect(await code(two.update('alice', id, {}))).toEqual(unknown);
    }
    const ids = new Set(await Promise.all(Array.from({ length: 200 }, async () => (await one.create(`p${Math.random()}`, () => Promise.resolve({ content: [] }))).taskId)));
    expect(ids.size).toBe(200);
  });

  it("tells another principal, and an anonymous caller, that a principal's task does not exist, and lets neither cancel nor answer it", async () => {
    const call = gatedCall('mine');
    const { taskId } = await one.create('alice', call.run);
    const unknown = await code(two.get('alice', 'no-such-task'));
    for (const intruder of ['mallory', undefined, 'Alice', 'alice ']) {
      expect(await code(two.get(intruder, taskId))).toEqual(unknown);
      expect(await code(two.cancel(intruder, taskId))).toEqual(unknown);
      expect(await code(two.update(intruder, taskId, {}))).toEqual(unknown);
    }
    const anonymous = await one.create(undefined, () => Promise.resolve({ content: [] }));
    expect(await code(two.get('alice', anonymous.taskId))).toEqual(unknown);
    call.release();
    await until(async () => (await two.get('alice', taskId)).status === 'completed');
    expect(call.seen.signal?.aborted).toBe(false);
  });

  it('reads entries written into the store by anyone without the secret as absent: nothing runs, nothing leaks', async () => {
    const call = gatedCall('real');
    const { taskId } = await one.create('alice', call.run);
    // a forged record for an id of the attacker's choosing, unsigned and signed with another key
    await store.set('task:forged-id', JSON.stringify({ taskId: 'forged-id', owner: 'x', createdAt: new Date().toISOString(), ttlMs: 60_000, pollIntervalMs: 20 }), 60_000);
    expect(await code(two.get('alice', 'forged-id'))).toMatchObject({ code: -32602 });
    const other = host({}, 'another-servers-secret');
    const theirs = await other.create('alice', () => Promise.resolve({ content: [{ type: 'text', text: 'theirs' }] }));
    expect(await code(two.get('alice', theirs.taskId))).toMatchObject({ code: -32602 });
    // a forged end for a real task (an attacker's "result"), and a record copied from another task
    await store.set(`task:${taskId}:end`, `AAAA.${JSON.stringify({ status: 'completed', lastUpdatedAt: new Date().toISOString(), result: { content: [{ type: 'text', text: 'injected' }] } })}`, 60_000);
    expect(await two.get('alice', taskId)).toMatchObject({ status: 'working' });
    const copy = await one.create('alice', gatedCall().run);
    await store.set(`task:${copy.taskId}:end`, (await store.get(`task:${taskId}:state`)) ?? '', 60_000);
    expect((await two.get('alice', copy.taskId)).status).toBe('working');
    expect(forged).toEqual(expect.arrayContaining(['task:forged-id', `task:${theirs.taskId}`, `task:${taskId}:end`, `task:${copy.taskId}:end`]));
    await store.delete(`task:${taskId}:end`);
    call.release();
    await until(async () => (await two.get('alice', taskId)).status === 'completed');
    expect(JSON.stringify(await two.get('alice', taskId))).not.toContain('injected');
  });

  it('bounds the tasks of one principal (fleet-wide) and leaves other principals their own', async () => {
    const bounded = [host({ maxTasksPerPrincipal: 3 }), host({ maxTasksPerPrincipal: 3 })];
    const owner = `bob-${Math.random()}`;
    for (let i = 0; i < 3; i++) await bounded[i % 2].create(owner, () => Promise.resolve({ content: [] }));
    expect(await code(bounded[1].create(owner, () => Promise.resolve({ content: [] })))).toEqual({ code: -32000, message: expect.stringMatching(/^Too many tasks: this caller has 3 tasks/) });
    expect((await bounded[0].create(`carol-${Math.random()}`, () => Promise.resolve({ content: [] }))).status).toBe('working');
  });

  it('ends a result larger than the bound as failed, and cancels a call still running at its TTL', async () => {
    const small = host({ maxResultBytes: 100, ttlMs: 300 });
    const big = await small.create('alice', () => Promise.resolve({ content: [{ type: 'text', text: 'x'.repeat(200) }] }));
    await until(async () => (await small.get('alice', big.taskId)).status === 'failed');
    expect((await small.get('alice', big.taskId)).error?.message).toMatch(/larger than the server keeps \(100 bytes\)/);
    const call = gatedCall();
    const slow = await small.create('alice', call.run);
    await until(() => call.seen.signal?.aborted === true);
    await until(async () => (await code(small.get('alice', slow.taskId))) !== 'resolved');
  });

  it('ends the tasks running on a process that closes as failed, and refuses new ones there', async () => {
    const closing = host();
    const call = gatedCall();
    const { taskId } = await closing.create('alice', call.run);
    await until(() => call.seen.signal !== undefined);
    await closing.close();
    expect(call.seen.signal?.aborted).toBe(true);
    expect(await two.get('alice', taskId)).toMatchObject({ status: 'failed', error: { message: 'The server process running the task stopped.' } });
    expect(await code(closing.create('alice', call.run))).toMatchObject({ code: -32000 });
  });
});
