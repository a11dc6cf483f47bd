'use strict';
// Runs every project under examples/ (a folder with a package.json; examples/demo is the in-repo
// demo that `npm start` runs from the sources, not such a project) as a user would, against the packed tarball: `npm pack`,
// a temporary copy of the example with the tarball unpacked as node_modules/toolwright, its
// `build` script, then its `start` script; what `start` prints must equal the
// example's expected-output.txt. The example's other dependencies are linked from this repo's
// node_modules (as scripts/check-package.js does), so the run needs no network. Run
// `npm run build` first (`.ci/run` runs it after `npm run test:package`). Last, the README's quick
// example runs in a fresh `tsc --init` project.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const examples = path.join(root, 'examples');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-examples-'));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

const tarball = path.join(work, JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root))[0].filename);
const unpacked = path.join(work, 'unpacked');
fs.mkdirSync(unpacked);
run('tar', ['-xzf', tarball, '-C', unpacked], root);

/** `dir`/node_modules: the unpacked tarball as toolwright, and links to this repo's dependencies. */
function installInto(dir) {
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  fs.cpSync(path.join(unpacked, 'package'), path.join(modules, 'toolwright'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (entry === '.bin' || entry === 'toolwright' || entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  return modules;
}

/** A copy of the example without its build output, with its node_modules. */
function install(name) {
  const dir = path.join(work, name);
  fs.cpSync(path.join(examples, name), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|dist|tools\.manifest\.ts)$/.test(src) });
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const modules = installInto(dir);
  for (const dependency of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
    if (!fs.existsSync(path.join(modules, dependency))) throw new Error(`${name}: ${dependency} is not installed in this repository`);
  }
  return { dir, pkg };
}

/** The bins an example's scripts may call, as `node <file>` (the linked node_modules have no .bin). */
const BINS = {
  node: [],
  tsc: ['typescript/bin/tsc'],
  tsx: ['tsx/dist/cli.mjs'],
  'toolwright-schema': ['toolwright/dist/build/toolwright-schema-cli.js'],
};

/** Runs one npm script of an example (`a && b`, words split on spaces, quotes stripped) and returns what it printed. */
function runScript(name, dir, script) {
  let output = '';
  for (const command of script.split(' && ')) {
    const [bin, ...args] = (command.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^(['"])(.*)\1$/, '$2'));
    const entry = BINS[bin];
    if (entry === undefined) throw new Error(`${name}: scripts may only call ${Object.keys(BINS).join(', ')} (got ${bin})`);
    output += run(process.execPath, [...entry.map((file) => path.join(dir, 'node_modules', file)), ...args], dir);
  }
  return output;
}

// `node scripts/run-examples.js weather-agent nest-app` runs only those
const only = process.argv.slice(2);
const names = fs.readdirSync(examples).filter((name) => name !== 'demo' && fs.existsSync(path.join(examples, name, 'package.json')) && (only.length === 0 || only.includes(name)));
if (names.length === 0) throw new Error(`no example project under examples/${only.length ? ` named ${only.join(', ')}` : ''}`);
for (const name of names) {
  const { dir, pkg } = install(name);
  runScript(name, dir, pkg.scripts.build);
  const output = runScript(name, dir, pkg.scripts.start);
  const expected = fs.readFileSync(path.join(examples, name, 'expected-output.txt'), 'utf8');
  if (output !== expected) {
    throw new Error(`${name}: the output differs from expected-output.txt\n--- expected\n${expected}--- actual\n${output}`);
  }
  process.stdout.write(`example ${name}: built against the packed tarball and ran as expected\n`);
}
// The README's quick example in the project its "Quick example" section makes: `npm init -y`,
// `npm pkg set type=module`, `npx tsc --init` plus the two decorator flags; then `npx tsc && node index.js`.
{
  const fresh = path.join(work, 'fresh');
  fs.mkdirSync(fresh);
  run('npm', ['init', '-y'], fresh);
  run('npm', ['pkg', 'set', 'type=module'], fresh);
  const modules = installInto(fresh);
  const tsc = path.join(modules, 'typescript/bin/tsc');
  run(process.execPath, [tsc, '--init'], fresh);
  const tsconfig = path.join(fresh, 'tsconfig.json');
  const init = fs.readFileSync(tsconfig, 'utf8');
  if (!init.includes('"compilerOptions": {')) throw new Error('tsc --init wrote an unexpected tsconfig.json');
  fs.writeFileSync(tsconfig, init.replace('"compilerOptions": {', '"compilerOptions": {\n    "experimentalDecorators": true,\n    "emitDecoratorMetadata": true,'));
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick example'));
  const quick = /```ts\n([\s\S]*?)```/.exec(section);
  if (quick === null) throw new Error('README.md: no ```ts block in the Quick example section');
  fs.writeFileSync(path.join(fresh, 'index.ts'), quick[1]);
  run(process.execPath, [tsc], fresh);
  const printed = run(process.execPath, ['index.js'], fresh);
  if (printed !== 'Paris: 18 °C, cloudy\n') throw new Error(`README quick example printed ${JSON.stringify(printed)}`);
  process.stdout.write('README quick example: compiled in a fresh tsc --init project and ran as expected\n');
}
fs.rmSync(work, { recursive: true, force: true });
