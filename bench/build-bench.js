#!/usr/bin/env node
'use strict';
/**
 * Cold generation bench for toolwright-schema (bar: 100 tools across 10 files <= 3 s).
 *
 * Writes 10 service files x 10 @Tool methods (objects, nested interfaces, literal unions,
 * enums, arrays, Date, Record, nullable and optional parameters, injected parameters) into a
 * temp dir, then runs `generateManifest` in fresh Node processes (cold: nothing cached, the
 * TypeScript compiler loaded from scratch) and prints the timings.
 *
 *   npm run build && node bench/build-bench.js            # uses dist/build/index.js
 *   TOOLWRIGHT_BUILD=/tmp/twbuild/build/index.js node bench/build-bench.js
 *   RUNS=5 node bench/build-bench.js
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const FILES = 10;
const TOOLS_PER_FILE = 10;
const RUNS = Number(process.env.RUNS || 3);
const BAR_MS = 3000;
const entry = path.resolve(process.env.TOOLWRIGHT_BUILD || path.join(__dirname, '..', 'dist', 'build', 'index.js'));

if (!fs.existsSync(entry)) {
  console.error(`build-bench: ${entry} not found; run \`npm run build\` first (or set TOOLWRIGHT_BUILD).`);
  process.exit(1);
}

const STUB = `
export function Tool(_options?: { name?: string; description?: string }): MethodDecorator { return () => undefined; }
export function ToolParam(_options?: { name?: string; description?: string }): ParameterDecorator { return () => undefined; }
export class ToolEmitter { emit(_message: string): void {} }
export class RequestContext { constructor(readonly userId: string) {} }
`;

function serviceSource(f) {
  const lines = [
    `import { Tool, ToolParam, ToolEmitter, RequestContext } from './stub';`,
    ``,
    `/** Status of an order. */`,
    `export enum Status${f} { Open = 'open', Paid = 'paid', Shipped = 'shipped' }`,
    `/** A line item. */`,
    `export interface Item${f} {`,
    `  /** Product id. @pattern ^[A-Z]{3}-[0-9]+$ */ sku: string;`,
    `  /** @minimum 1 @maximum 99 */ quantity: number;`,
    `  note?: string | null;`,
    `}`,
    `/** Where to ship. */`,
    `export interface Address${f} { street: string; city: string; country: 'DE' | 'FR' | 'US'; geo?: { lat: number; lon: number } }`,
    `/** @minimum 1 @maximum 100 */`,
    `export type PageSize${f} = number;`,
    ``,
    `export class Service${f} {`,
  ];
  for (let t = 0; t < TOOLS_PER_FILE; t += 1) {
    lines.push(
      `  /**`,
      `   * Tool ${t} of service ${f}.`,
      `   * @param id The record id`,
      `   * @param items Line items`,
      `   * @param address Shipping address`,
      `   * @param status Status filter`,
      `   * @param since Only after this instant`,
      `   */`,
      `  @Tool()`,
      `  async tool${t}(`,
      `    id: string,`,
      `    items: Item${f}[],`,
      `    address: Address${f} | null,`,
      `    status: Status${f} = Status${f}.Open,`,
      `    mode: 'fast' | 'safe' | 'dry-run' = 'safe',`,
      `    since?: Date,`,
      `    labels?: Record<string, string>,`,
      `    size?: PageSize${f},`,
      `    @ToolParam({ description: 'explicit' }) flags: boolean[] = [],`,
      `    emitter?: ToolEmitter,`,
      `    context?: RequestContext,`,
      `  ): Promise<{ ok: boolean; count: number; items: Item${f}[] }> {`,
      `    void [id, address, status, mode, since, labels, size, flags, emitter, context];`,
      `    return { ok: true, count: items.length, items };`,
      `  }`,
    );
  }
  lines.push(`}`, ``);
  return lines.join('\n');
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-build-bench-'));
try {
  fs.writeFileSync(path.join(dir, 'stub.ts'), STUB);
  const files = [];
  for (let f = 0; f < FILES; f += 1) {
    const file = path.join(dir, `service-${f}.ts`);
    fs.writeFileSync(file, serviceSource(f));
    files.push(file);
  }
  // Main-thread CPU time (Linux): unlike wall time it barely moves when other processes compete
  // for the cores, so it tells whether a slow wall time is the code or a busy machine.
  const child = `
    const fs = require('node:fs');
    const mainThreadCpu = () => {
      try {
        const fields = fs.readFileSync('/proc/self/task/' + process.pid + '/stat', 'utf8').split(') ')[1].split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in ticks of 10 ms
      } catch { return NaN; }
    };
    const c0 = mainThreadCpu();
    const t0 = process.hrtime.bigint();
    const { generateManifest } = require(${JSON.stringify(entry)});
    const t1 = process.hrtime.bigint();
    const manifest = generateManifest({ files: ${JSON.stringify(files)}, cwd: ${JSON.stringify(dir)} });
    const t2 = process.hrtime.bigint();
    const c2 = mainThreadCpu();
    const tools = Object.values(manifest.classes).reduce((n, c) => n + Object.keys(c.methods).length, 0);
    process.stdout.write(JSON.stringify({ load: Number(t1 - t0) / 1e6, generate: Number(t2 - t1) / 1e6, cpu: c2 - c0, tools }));
  `;
  const results = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = process.hrtime.bigint();
    const out = spawnSync(process.execPath, ['-e', child], { encoding: 'utf8' });
    const wall = Number(process.hrtime.bigint() - started) / 1e6;
    if (out.status !== 0) {
      console.error(out.stderr);
      process.exit(1);
    }
    results.push({ ...JSON.parse(out.stdout), wall });
  }
  const median = (key) => results.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
  const tools = results[0].tools;
  const wall = median('wall');
  console.log(`toolwright-schema cold generation: ${tools} tools in ${FILES} files, ${RUNS} runs (median)`);
  console.log(`  load toolwright/build (+ typescript): ${median('load').toFixed(0)} ms`);
  console.log(`  generateManifest:                     ${median('generate').toFixed(0)} ms`);
  if (!Number.isNaN(median('cpu'))) console.log(`  main-thread CPU (load + generate):    ${median('cpu').toFixed(0)} ms   (what a quiet machine would take)`);
  console.log(`  whole process (node start to exit):   ${wall.toFixed(0)} ms   (bar ${BAR_MS} ms: ${wall <= BAR_MS ? 'ok' : 'OVER'})`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
