import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Toolkit, ToolExecutionContext } from '../../../src';
import { queueTools } from '../../../src/bullmq';
import { ReportService, Requester, TRAVELLING } from './report.service';

/**
 * `npm run sample:queue`: an API process routes the `reports` group to BullMQ, two worker
 * processes run the calls. Needs Redis on 127.0.0.1:6379 (REDIS_HOST / REDIS_PORT to change).
 */
const connection = { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
const queueName = `toolwright-sample-${process.pid}`;
const say = (line = '') => process.stdout.write(`${line}\n`);

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', './scripts/swc-register.js', path.join('examples/demo/queue/worker.ts')], {
    cwd: path.resolve(__dirname, '../../..'),
    env: { ...process.env, QUEUE_NAME: queueName },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`a worker exited (${String(code)}) before it was ready`)));
  });
}

async function main(): Promise<void> {
  const toolkit = new Toolkit();
  toolkit.registerTool(ReportService); // no token here: the parameter is hidden, and bound on the workers
  const routing = queueTools(toolkit, { connection, queueName, groups: ['reports'], contexts: TRAVELLING });
  await routing.ready();
  const workers = await Promise.all([startWorker(), startWorker()]);
  say(`two workers (pids ${workers.map((w) => w.pid).join(', ')}) on queue ${queueName}`);
  say(`the model sees: ${JSON.stringify(toolkit.getToolSchemas()[0].parameters)}`);
  const context = ToolExecutionContext.of(new Requester('Ada'));
  try {
    const bad = await toolkit.callTool({ id: 'c0', name: 'sales_report', arguments: { month: '2026-13' } }, { context });
    say(`invalid month, answered before anything is queued: ${bad.error?.code}: ${bad.forLLM.split('\n')[1] ?? bad.forLLM}`);

    const months = ['2026-07', '2026-08', '2026-09', '2026-10'];
    const results = await toolkit.callTools(
      months.map((month, i) => ({ id: `c${i + 1}`, name: 'sales_report', arguments: { month } })),
      { context, onProgress: (p) => say(`  progress ${p.callId}: ${p.message}`) },
    );
    for (const r of results) say(`${r.toolCallId}: ${r.forLLM}`);

    say('killing the worker that runs the next call, mid-call…');
    const pending = toolkit.callTool({ id: 'c9', name: 'sales_report', arguments: { month: '2026-11' } }, { context, onProgress: (p) => say(`  progress ${p.callId}: ${p.message}`) });
    await new Promise((r) => setTimeout(r, 400));
    workers[0].kill('SIGKILL');
    workers[1].kill('SIGKILL');
    const survivor = await startWorker();
    workers.push(survivor);
    say(`…and a new worker (pid ${survivor.pid}) takes the job over once its lock expires`);
    const recovered = await pending;
    say(`c9: ${recovered.forLLM}`);
  } finally {
    await routing.close();
    for (const worker of workers) worker.kill('SIGTERM');
    const queue = new Queue(queueName, { connection });
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
