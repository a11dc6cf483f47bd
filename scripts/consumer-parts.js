'use strict';
/**
 * What the consumer checks (scripts/check-package.js, scripts/todays-stack.js) share: the packed
 * tarball and the programs a consumer project runs against it.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** Runs a command and returns what it printed (stderr goes to ours). */
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

/** `npm pack` of the built package into `work` (run `npm run build` first): the tarball and its unpacked `package/` folder. */
function packTarball(work) {
  if (!fs.existsSync(path.join(root, 'dist', 'index.js'))) throw new Error('no dist/: run `npm run build` first');
  const tarball = path.join(work, JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root))[0].filename);
  const unpacked = path.join(work, 'unpacked');
  fs.mkdirSync(unpacked);
  run('tar', ['-xzf', tarball, '-C', unpacked], root);
  return { tarball, shipped: path.join(unpacked, 'package') };
}

// A BullMQ round trip against the machine's Redis: the tool runs on a worker of the consumer's own
// toolwright/bullmq (a unique queue, obliterated after).
const queueRun = (load) => `
${load}
const queueName = 'tw-package-' + process.pid + '-' + Date.now();
const connection = { host: '127.0.0.1', port: 6379 };
const shout = { name: 'shout', description: 'Shout', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: (a) => String(a.text).toUpperCase() + ' from ' + process.pid };
const caller = new tw.Toolkit();
caller.registerTool(shout);
const worker = new tw.Toolkit();
worker.registerTool(shout);
const routing = bullmq.queueTools(caller, { connection, queueName, tools: ['shout'] });
const running = bullmq.createToolWorker(worker, { connection, queueName, concurrency: 2 });
(async () => {
  const r = await caller.callTool({ id: 'q1', name: 'shout', arguments: { text: 'hi' } });
  const bad = await caller.callTool({ id: 'q2', name: 'shout', arguments: { text: 1 } });
  if (r.forLLM !== 'HI from ' + process.pid || bad.error.code !== 'INVALID_ARGUMENTS') throw new Error('bullmq: ' + JSON.stringify([r, bad]));
  await routing.close();
  await running.close();
  const { Queue } = await import('bullmq');
  const q = new Queue(queueName, { connection });
  await q.obliterate({ force: true });
  await q.close();
  process.stdout.write('ok\\n');
})().catch((e) => { console.error(e); process.exit(1); });
`;

// The vendor clients a provider takes, as the consumer's own build of each SDK (CommonJS or ES module)
// declares them: each SDK class has private members, so the provider's types must name that build.
const providerClients = `
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { OpenAIProvider } from 'toolwright/openai';
import { AnthropicProvider } from 'toolwright/anthropic';
import { GeminiProvider } from 'toolwright/gemini';
export const providers = [
  new OpenAIProvider(new OpenAI({ apiKey: 'k' })),
  new AnthropicProvider(new Anthropic({ apiKey: 'k' })),
  new GeminiProvider(new GoogleGenAI({ apiKey: 'k' })),
];
`;

module.exports = { packTarball, providerClients, queueRun, run };
