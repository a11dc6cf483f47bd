'use strict';
/**
 * `npm run conformance [-- set… scenario…]`: runs the official MCP conformance suite
 * (@modelcontextprotocol/conformance, a devDependency pinned exactly) against toolwright's
 * conformance server (conformance/server.ts) over Streamable HTTP on 127.0.0.1, once per
 * requirement set, and compares each set's outcome with conformance/expected-failures/<set>.json.
 *
 * The sets, as the suite defines them (`conformance list --server --requirements <revision>`):
 * - `2025-11-25`: what that revision requires, run at its wire (initialize handshake, sessions),
 *   plus what it runs without scoring (pending, added after release);
 * - `2026-07-28`: the same for the stateless revision (per-request `_meta`, `server/discover`);
 * - `tasks`: the `io.modelcontextprotocol/tasks` extension, which the suite runs with the
 *   2026-07-28 requirements as unscored `extension` scenarios.
 *
 * - The suite needs Node 22. When this Node is older, a Node 22 binary from the npm registry
 *   (node-<platform>-<arch>) is installed once into .cache/node22 (gitignored) by
 *   scripts/cached-package.js.
 * - Arguments: set names run only those sets; scenario names run only those scenarios (in every
 *   selected set that has them). Without arguments everything runs.
 * - A scenario passes when it has at least one successful check and no failed one: a scenario the
 *   suite skipped, or one that threw, does not pass; one without any result fails the run even
 *   when it is an expected failure (a suite that cannot run is not a list of expected failures).
 * - Exit code 1 when a scenario fails that its set's file does not list, when a listed one passes
 *   (remove it), or when a file names a scenario its set does not have.
 * - The output ends with one line of figures per set.
 *
 * Environment: CONFORMANCE_NODE=/path/to/node22 uses that binary instead of the cache;
 * CONFORMANCE_VERBOSE=1 prints the suite's own output.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { major, nodeBinary } = require('./cached-package');
const { parseRequirements, readResults, judgeSet } = require('./conformance-results');

const root = path.resolve(__dirname, '..');
const EXPECTED_FAILURES = path.join(root, 'conformance', 'expected-failures');
const SUITE_CLI = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
const SUITE_VERSION = require('@modelcontextprotocol/conformance/package.json').version;
/** Both revisions take ~20 s together; a hung scenario must not hang CI. */
const SUITE_TIMEOUT_MS = 10 * 60_000;

/**
 * The requirement sets: `revision` is the suite's `--requirements` value (and wire), `pick`
 * chooses the set's server scenarios from that revision's list.
 */
const SETS = [
  { name: '2025-11-25', revision: '2025-11-25', pick: (list) => [...list.required, ...list.unscored('added-after-release', 'pending')] },
  { name: '2026-07-28', revision: '2026-07-28', pick: (list) => [...list.required, ...list.unscored('added-after-release', 'pending')] },
  { name: 'tasks', revision: '2026-07-28', pick: (list) => list.unscored('extension') },
];

const log = (line) => process.stdout.write(`${line}\n`);

/** A Node ≥ 22 binary: this one, $CONFORMANCE_NODE, or the cached npm package (installed when missing). */
function node22() {
  if (process.env.CONFORMANCE_NODE) return process.env.CONFORMANCE_NODE;
  return major(process.version) >= 22 ? process.execPath : nodeBinary(22);
}

/** Runs the suite's CLI with Node 22; resolves with its exit code and output. */
function runSuite(node, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [SUITE_CLI, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk) => {
      output += chunk;
      if (process.env.CONFORMANCE_VERBOSE) process.stdout.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/** A revision's server scenarios, from `conformance list --server --requirements <revision>`. */
async function listRequirements(node, revision) {
  const { code, output } = await runSuite(node, ['list', '--server', '--requirements', revision]);
  const list = code === 0 ? parseRequirements(output) : undefined;
  if (!list) throw new Error(`conformance list --server --requirements ${revision} failed (exit ${code}):\n${output}`);
  return list;
}

/** conformance/expected-failures/<set>.json: scenario → the reason it is expected to fail. */
function loadExpectedFailures(set) {
  const file = path.join(EXPECTED_FAILURES, `${set}.json`);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  const entries = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? Object.entries(raw) : undefined;
  if (!entries || entries.some(([, reason]) => typeof reason !== 'string' || reason.length === 0)) {
    throw new Error(`${path.relative(root, file)}: expected an object { scenario: reason }`);
  }
  return new Map(entries);
}

/** Runs one revision's scenarios: the whole requirement set, or the named scenarios one by one. */
async function runRevision(node, url, revision, scenarios, whole, outputDir) {
  const args = ['server', '--url', url, '--output-dir', outputDir];
  if (whole) return runSuite(node, [...args, '--requirements', revision]);
  const runs = [];
  for (const scenario of scenarios) runs.push(await runSuite(node, [...args, '--scenario', scenario, '--spec-version', revision, '--force']));
  return { code: runs.some((r) => r.code !== 0) ? 1 : 0, signal: runs.find((r) => r.signal)?.signal, output: runs.map((r) => r.output).join('\n') };
}

async function main() {
  const args = process.argv.slice(2);
  const selected = SETS.filter((set) => args.includes(set.name));
  const sets = selected.length > 0 ? selected : SETS;
  const wanted = args.filter((arg) => !SETS.some((set) => set.name === arg));
  const node = node22();

  const expected = new Map(sets.map((set) => [set.name, loadExpectedFailures(set.name)]));
  // the lists come from Node 22 children while this process compiles and starts the server
  const revisions = [...new Set(sets.map((set) => set.revision))];
  const listing = Promise.all(revisions.map((revision) => listRequirements(node, revision)));
  listing.catch(() => undefined); // awaited below: not an unhandled rejection while the server starts
  // the server runs in this process (Node 20 is fine for toolwright); the suite in a Node 22 child
  require('./swc-register');
  const { startConformanceServer } = require('../conformance/server.ts');
  const server = await startConformanceServer();
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-conformance-'));
  const results = new Map();
  const outputs = [];
  const problems = [];
  let plan;
  try {
    const lists = new Map((await listing).map((list, i) => [revisions[i], list]));
    plan = sets.map((set) => {
      const all = set.pick(lists.get(set.revision));
      return { ...set, all, scenarios: wanted.length > 0 ? all.filter((s) => wanted.includes(s)) : all, expected: expected.get(set.name) };
    });
    for (const name of wanted) if (!plan.some((set) => set.all.includes(name))) problems.push(`${name}: no server scenario of that name in the selected sets (suite ${SUITE_VERSION})`);
    for (const set of plan) {
      for (const name of set.expected.keys()) if (!set.all.includes(name)) problems.push(`${name}: conformance/expected-failures/${set.name}.json lists it, but the set ${set.name} has no such scenario (suite ${SUITE_VERSION})`);
    }
    log(`MCP conformance suite ${SUITE_VERSION} (Node ${spawnSync(node, ['--version']).stdout.toString().trim()}) against ${server.url.href}`);
    for (const revision of new Set(plan.map((set) => set.revision))) {
      const scenarios = [...new Set(plan.filter((set) => set.revision === revision).flatMap((set) => set.scenarios))];
      if (scenarios.length === 0) continue;
      const started = Date.now();
      const dir = path.join(outputDir, revision);
      const run = await runRevision(node, server.url.href, revision, scenarios, wanted.length === 0, dir);
      if (run.signal) problems.push(`the suite was killed (${run.signal}) after ${SUITE_TIMEOUT_MS / 1000} s at ${revision}`);
      outputs.push(run.output);
      results.set(revision, readResults(dir));
      log(`${revision} wire: ${scenarios.length} scenarios in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    await server.close();
    fs.rmSync(outputDir, { recursive: true, force: true });
  }

  const figures = [];
  const width = Math.max(...plan.flatMap((set) => set.scenarios.map((s) => s.length)), 'scenario'.length);
  for (const set of plan) {
    if (set.scenarios.length === 0) continue;
    const judged = judgeSet({ ...set, results: results.get(set.revision) ?? new Map() });
    log('');
    log(`${`[${set.name}]`.padEnd(width)}  passed  failed  warn  verdict`);
    for (const r of judged.rows) {
      log(`${r.scenario.padEnd(width)}  ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${String(r.warnings).padStart(4)}  ${r.verdict}`);
    }
    problems.push(...judged.problems);
    figures.push(judged.figure);
  }

  if (problems.length > 0) {
    log('');
    for (const problem of problems) log(`✗ ${problem}`);
    if (!process.env.CONFORMANCE_VERBOSE && problems.some((p) => p.includes('threw') || p.includes('killed'))) log(outputs.join('\n').slice(-4000));
    process.exitCode = 1;
  }
  log('');
  for (const line of figures) log(line);
}

main().catch((error) => {
  process.stderr.write(`conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
