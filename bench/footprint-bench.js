'use strict';
// Footprint benchmarks of a light install, run through `npm run bench` after the build:
//  (a) what a user installs: the packed tarball in a fresh project with `npm install`, which also
//      installs the required (non-optional) peers; node_modules size and package count.
//  (b) the cold-start cost: the time `require('toolwright')` adds over `reflect-metadata`,
//      `inversify` and `rxjs`, the median of several fresh `node` processes in that project, and
//      the steps from there to the first result of a tool call (where the deferred modules load).
// Needs the npm registry for (a); without it, (b) runs against this repository's dist/.
// Goals: installed size <= 50 MB, added cold require <= 40 ms. A report, not a test: it never fails
// on a slow machine, only when a step itself breaks.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const RUNS = 15;
const GOAL_MB = 50;
const GOAL_MS = 40;
/** Packages the core must not load at `require` time. */
const LAZY = ['typescript', 'typescript-json-schema', 'class-validator', 'class-transformer', 'ajv-formats', 'ajv', 're2js', 'tinyglobby'];

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** Bytes of every file under `dir` (symbolic links not followed) and the packages found in it. */
function measure(dir) {
  let bytes = 0;
  const packages = new Set();
  const walk = (current) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        bytes += fs.statSync(full).size;
        // node_modules/<name>/package.json or node_modules/@scope/<name>/package.json
        const rel = path.relative(path.dirname(dir), full).split(path.sep);
        const at = rel.lastIndexOf('node_modules');
        const tail = rel.slice(at + 1);
        if (entry.name === 'package.json' && at >= 0 && (tail.length === 2 || (tail.length === 3 && tail[0].startsWith('@')))) {
          packages.add(rel.slice(0, -1).join('/'));
        }
      }
    }
  };
  walk(dir);
  return { bytes, packages: packages.size };
}

/** The biggest packages of an install, by size. */
function biggest(modules, count) {
  const sizes = [];
  for (const name of fs.readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const names = name.startsWith('@') ? fs.readdirSync(path.join(modules, name)).map((n) => `${name}/${n}`) : [name];
    for (const pkg of names) sizes.push([pkg, measure(path.join(modules, pkg)).bytes]);
  }
  return sizes.sort((a, b) => b[1] - a[1]).slice(0, count);
}

const mb = (bytes) => (bytes / 1e6).toFixed(1);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Installs the packed tarball into a fresh project; returns the project, or undefined without a registry. */
function install(work) {
  const tarball = path.join(work, JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root))[0].filename);
  const project = path.join(work, 'app');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'footprint-app', private: true }));
  try {
    run('npm', ['install', tarball, '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], project);
  } catch (error) {
    process.stdout.write(`npm install failed (no registry?): ${String(error.stderr || error.message).trim().split('\n')[0]}\n`);
    return undefined;
  }
  const modules = path.join(project, 'node_modules');
  const { bytes, packages } = measure(modules);
  const disk = Number(run('du', ['-sk', modules], project).split('\t')[0]) * 1024;
  process.stdout.write(`installed size with required peers: ${mb(bytes)} MB of files (${mb(disk)} MB on disk) in ${packages} packages (goal <= ${GOAL_MB} MB)\n`);
  process.stdout.write(`  biggest: ${biggest(modules, 6).map(([name, size]) => `${name} ${mb(size)} MB`).join(', ')}\n`);
  const absent = ['typescript', 'typescript-json-schema'].filter((name) => !fs.existsSync(path.join(modules, name)));
  process.stdout.write(`  build-time peers not installed: ${absent.length ? absent.join(', ') : 'none'}\n`);
  return project;
}

/**
 * One fresh process: the wall and CPU ms `require(entry)` takes after the three peers are loaded,
 * what it loaded, and the ms of each step from there to the first result of a tool call (a
 * toolkit, one plain tool, one call: what a short-lived process such as a CLI or a serverless
 * function pays on top of the require).
 */
const probe = (entry) => `
const path = require('node:path');
const load = require('node:module').createRequire(path.join(process.cwd(), 'probe.js'));
load('reflect-metadata'); load('inversify'); load('rxjs');
const cpu = process.cpuUsage();
const start = process.hrtime.bigint();
const { Toolkit } = load(${JSON.stringify(entry)});
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const { user, system } = process.cpuUsage(cpu);
const lazy = ${JSON.stringify(LAZY)};
const files = Object.keys(require.cache);
const loaded = lazy.filter((name) => files.some((file) => file.includes('/node_modules/' + name + '/')));
const own = path.dirname(load.resolve(${JSON.stringify(entry)})) + path.sep;
const ownFiles = files.filter((file) => file.startsWith(own)).length;
const crypto = process.moduleLoadList.includes('NativeModule crypto');
const since = (from) => Number(process.hrtime.bigint() - from) / 1e6;
let step = process.hrtime.bigint();
const toolkit = new Toolkit();
const construct = since(step);
step = process.hrtime.bigint();
toolkit.registerTool({ name: 'echo', description: 'Echo', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: (a) => String(a.text) });
const register = since(step);
step = process.hrtime.bigint();
toolkit.callTool({ id: '1', name: 'echo', arguments: '{"text":"hi"}' }).then((result) => {
  if (result.isError) throw new Error(result.forLLM);
  const call = since(step);
  process.stdout.write(JSON.stringify({ ms, cpuMs: (user + system) / 1000, construct, register, call, loaded, modules: files.length, ownFiles, crypto }));
});
`;

/**
 * {@link RUNS} probes of `entry`, each a fresh process started in `cwd`. The probe runs from a file
 * in `work`, as an application runs: `node -e` preloads `node:crypto` when its text names it.
 */
function coldRequire(work, cwd, entry, label) {
  const file = path.join(work, 'probe.js');
  fs.writeFileSync(file, probe(entry));
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(JSON.parse(run(process.execPath, [file], cwd)));
  const wall = samples.map((s) => s.ms);
  const last = samples[samples.length - 1];
  process.stdout.write(
    `cold require('${label}') over reflect-metadata + inversify + rxjs: median ${median(wall).toFixed(1)} ms ` +
      `(min ${Math.min(...wall).toFixed(1)}, max ${Math.max(...wall).toFixed(1)}, CPU median ${median(samples.map((s) => s.cpuMs)).toFixed(1)} ms; ` +
      `${RUNS} processes; goal <= ${GOAL_MS} ms)\n`,
  );
  process.stdout.write(
    `  modules in require.cache afterwards: ${last.modules} (${last.ownFiles} of toolwright's own); node:crypto loaded: ${last.crypto ? 'yes' : 'no'}; ` +
      `of ${LAZY.join(', ')} loaded: ${last.loaded.length ? last.loaded.join(', ') : 'none'}\n`,
  );
  const step = (key) => median(samples.map((s) => s[key]));
  process.stdout.write(
    `  then, medians: new Toolkit() ${step('construct').toFixed(1)} ms (loads the executor), registerTool of one plain tool ` +
      `${step('register').toFixed(1)} ms (loads Ajv, checks the schema against its meta-schema), its first call ${step('call').toFixed(1)} ms ` +
      `(together ${median(samples.map((s) => s.construct + s.register + s.call)).toFixed(1)} ms)\n`,
  );
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-footprint-'));
try {
  const project = install(work);
  if (project) coldRequire(work, project, 'toolwright', 'toolwright');
  else coldRequire(work, root, path.join(root, 'dist/index.js'), 'dist/index.js');
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
