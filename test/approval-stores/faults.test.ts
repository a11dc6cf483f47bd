import { spawn, type ChildProcess } from 'node:child_process';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { exited, freePort, within } from '../bullmq/fixtures/processes';
import { ROOT } from '../support/child-process';
import { dropSchema, requirePostgres, uniqueSchema } from '../support/postgres';
import { cleanRedis, requireRedis, uniqueQueue } from '../support/redis';
import { closeServices, openStore, replica, runnersOf, runsOf, type StoreSpec } from './fixtures/services';

/**
 * Faults with real processes and the real databases: the process that held a call is SIGKILLed;
 * replicas in separate processes decide the same call at the same instant; one cannot reach the
 * store. Each call runs at most once, fleet-wide, as its requester.
 */

const runsPrefix = uniqueQueue('approval-fault-runs');
process.env.TW_RUNS = runsPrefix;

const children = new Set<ChildProcess>();

afterEach(async () => {
  const running = [...children];
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(running.map(exited));
});

afterAll(async () => {
  closeServices();
  await cleanRedis(`${runsPrefix}:*`);
});

/** A replica process (`fixtures/replica-main.ts`); `lines` yields what it prints, line by line. */
function startProcess(spec: StoreSpec, env: Record<string, string>): { child: ChildProcess; next(): Promise<string> } {
  const child = spawn(process.execPath, ['-r', './scripts/swc-register.js', 'test/approval-stores/fixtures/replica-main.ts'], {
    cwd: ROOT,
    env: { ...process.env, TW_RUNS: runsPrefix, TW_STORE_KIND: spec.kind, TW_STORE_NAME: spec.name, ...(spec.port !== undefined ? { TW_STORE_PORT: String(spec.port) } : {}), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let buffer = '';
  let stderr = '';
  const waiting: ((line: string) => void)[] = [];
  const lines: string[] = [];
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    let at: number;
    while ((at = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const next = (): Promise<string> =>
    within(
      30_000,
      'the replica process to answer',
      new Promise<string>((resolve, reject) => {
        const line = lines.shift();
        if (line !== undefined) return resolve(line);
        waiting.push(resolve);
        child.once('exit', (code) => reject(new Error(`the replica process exited (${String(code)}): ${stderr.slice(0, 2_000)}`)));
      }),
    );
  return { child, next };
}

/** Starts `n` deciding replica processes and resolves once each is ready. */
async function deciders(spec: StoreSpec, n: number): Promise<ReturnType<typeof startProcess>[]> {
  const started = Array.from({ length: n }, () => startProcess(spec, { TW_ROLE: 'decide' }));
  for (const { next } of started) expect(await next()).toBe('ready');
  return started;
}

describe.each(['redis', 'postgres'] as const)('approval faults with %s', (kind) => {
  let spec: StoreSpec;
  let calls = 0;
  const ref = (): string => `${runsPrefix}-${kind}-${++calls}`;

  beforeAll(async () => {
    await (kind === 'redis' ? requireRedis() : requirePostgres());
  });

  beforeEach(() => {
    spec = { kind, name: kind === 'redis' ? uniqueQueue('approval-faults') : uniqueSchema('approval_faults') };
  });

  afterEach(async () => {
    if (kind === 'redis') await cleanRedis(`{${spec.name}}:*`);
    else await dropSchema(spec.name);
  });

  it('the process holding a call is SIGKILLed: another replica approves it and it runs once there, as its requester', async () => {
    const tag = ref();
    const holder = startProcess(spec, { TW_ROLE: 'hold', TW_REF: tag });
    const { held: id } = JSON.parse(await holder.next()) as { held: string };
    holder.child.kill('SIGKILL');
    await exited(holder.child);

    const { store, close } = openStore(spec);
    try {
      const { toolkit, approvals } = replica(store);
      await firstValueFrom(approvals.pending$.pipe(filter((list) => list.some((p) => p.id === id)), timeout(10_000)));
      const result = await approvals.approve(id, { toolkit });
      expect(result.forLLM).toContain('paid 250 to bob for ann@t1');
      expect(await runsOf(tag)).toBe(1);
      expect(await runnersOf(tag)).toEqual([`ann@t1|ann|payments:send|${process.pid}`]);
    } finally {
      await close();
    }
  });

  it('two replica processes approve at the same instant: one run, one APPROVAL_NOT_PENDING; approve against reject: one outcome', async () => {
    const tag = ref();
    const holder = startProcess(spec, { TW_ROLE: 'hold', TW_REF: tag });
    const { held: id } = JSON.parse(await holder.next()) as { held: string };
    const [one, two, three, four] = await deciders(spec, 4);
    one!.child.stdin!.write(`approve ${id}\n`);
    two!.child.stdin!.write(`approve ${id}\n`);
    const outcomes = [JSON.parse(await one!.next()), JSON.parse(await two!.next())] as { ok: boolean; code?: string }[];
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ code: 'APPROVAL_NOT_PENDING' });
    expect(await runsOf(tag)).toBe(1);

    const raceTag = ref();
    const second = startProcess(spec, { TW_ROLE: 'hold', TW_REF: raceTag });
    const { held: raceId } = JSON.parse(await second.next()) as { held: string };
    three!.child.stdin!.write(`approve ${raceId}\n`);
    four!.child.stdin!.write(`reject ${raceId}\n`);
    const [approved, rejected] = [JSON.parse(await three!.next()), JSON.parse(await four!.next())] as { ok: boolean; code?: string }[];
    expect([approved!.ok, rejected!.ok].filter(Boolean)).toHaveLength(1);
    expect((approved!.ok ? rejected : approved)!.code).toBe('APPROVAL_NOT_PENDING');
    expect(await runsOf(raceTag)).toBe(approved!.ok ? 1 : 0);
  });

  it('a replica process that cannot reach the store: a clear error, nothing runs; the call is still there for one that can', async () => {
    const tag = ref();
    const holder = startProcess(spec, { TW_ROLE: 'hold', TW_REF: tag });
    const { held: id } = JSON.parse(await holder.next()) as { held: string };
    const [cut] = await deciders({ ...spec, port: await freePort() }, 1);
    cut!.child.stdin!.write(`approve ${id}\n`);
    const failed = JSON.parse(await cut!.next()) as { ok: boolean; code: string; message: string };
    expect(failed).toMatchObject({ ok: false, code: 'APPROVAL_STORE_FAILED' });
    expect(failed.message).toMatch(kind === 'redis' ? /Redis at 127\.0\.0\.1:\d+ failed to read a pending call/ : /PostgreSQL failed to read a pending call .*ECONNREFUSED/);
    expect(await runsOf(tag)).toBe(0);

    const [ok] = await deciders(spec, 1);
    ok!.child.stdin!.write(`approve ${id}\n`);
    expect(JSON.parse(await ok!.next())).toMatchObject({ ok: true, isError: false });
    expect(await runsOf(tag)).toBe(1);
  });
});
